/* <almanac-events>: upcoming events of an almanac site on a page of another site.
 *
 *   <script src="https://calendar.example.org/embed.js" async></script>
 *   <almanac-events view="list" category="music" limit="5" lang="de">
 *     <a href="https://calendar.example.org/events/">Our calendar</a>
 *   </almanac-events>
 *
 * Attributes: view (list, or month: the events of this month by day), category, tag (slugs),
 * venue (an ID), limit (1-50, default 5), lang (en, de, sk). The element reads the JSON API
 * of the site this script came from (that site's CORS_ORIGINS must name the embedding page's
 * origin) and is styled by the same custom properties as the site (--almanac-*). Its
 * children show until the events arrive, and stay when scripts do not run. */
(() => {
  "use strict";
  const script = document.currentScript;
  const site = script ? new URL(script.src).origin : location.origin;
  const LANGUAGES = ["en", "de", "sk"];
  const STYLE = `
    :host { display: block; font: inherit; color: var(--almanac-fg, inherit); }
    ul { list-style: none; margin: 0; padding: 0; }
    li { padding: var(--almanac-space, 1rem) 0; border-bottom: 1px solid var(--almanac-border, #d0d0d7); }
    a { color: var(--almanac-accent, #0b57d0); font-weight: 600; }
    time, .where { display: block; color: var(--almanac-muted, #545460); }
    h3 { font-size: 1rem; margin: var(--almanac-space, 1rem) 0 0; }`;

  class AlmanacEvents extends HTMLElement {
    static get observedAttributes() {
      return ["view", "category", "tag", "venue", "limit", "lang"];
    }

    connectedCallback() {
      this.load();
    }

    attributeChangedCallback() {
      if (this.isConnected) this.load();
    }

    query() {
      const lang = this.getAttribute("lang");
      const prefix = LANGUAGES.includes(lang) ? `/${lang}` : "";
      const limit = Math.min(50, Math.max(1, parseInt(this.getAttribute("limit") || "5", 10) || 5));
      const params = new URLSearchParams({ per_page: String(limit) });
      const now = new Date();
      if (this.getAttribute("view") === "month") {
        const first = new Date(now.getFullYear(), now.getMonth(), 1);
        const last = new Date(now.getFullYear(), now.getMonth() + 1, 0);
        params.set("start_date", first.toISOString().slice(0, 10));
        params.set("end_date", last.toISOString().slice(0, 10));
        params.set("per_page", "50");
      }
      for (const [attribute, name] of [["category", "categories"], ["tag", "tags"], ["venue", "venue"]]) {
        const value = this.getAttribute(attribute);
        if (value) params.set(name, value);
      }
      return `${site}${prefix}/calendar/events/v1/events?${params}`;
    }

    async load() {
      const url = this.query();
      this.loading = url;
      let events;
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        if (!response.ok) return; // the fallback children stay
        events = (await response.json()).events || [];
      } catch (error) {
        return;
      }
      if (this.loading === url) this.render(events);
    }

    render(events) {
      const lang = this.getAttribute("lang") || document.documentElement.lang || "en";
      const prefix = LANGUAGES.includes(this.getAttribute("lang")) ? `/${this.getAttribute("lang")}` : "";
      const day = new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short" });
      const time = new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit" });
      const root = this.shadowRoot || this.attachShadow({ mode: "open" });
      root.replaceChildren();
      const style = document.createElement("style");
      style.textContent = STYLE;
      root.append(style);
      const byDay = this.getAttribute("view") === "month";
      let list = null;
      let heading = "";
      for (const event of events) {
        const start = new Date(event.start_date.replace(" ", "T"));
        if (!list || (byDay && day.format(start) !== heading)) {
          if (byDay) {
            heading = day.format(start);
            const title = document.createElement("h3");
            title.textContent = heading;
            root.append(title);
          }
          list = document.createElement("ul");
          root.append(list);
        }
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = prefix && event.url.startsWith(`${site}/`)
          ? `${site}${prefix}${event.url.slice(site.length)}` : event.url;
        link.textContent = event.title;
        const when = document.createElement("time");
        when.dateTime = event.start_date.replace(" ", "T");
        when.textContent = event.all_day ? day.format(start) : `${day.format(start)}, ${time.format(start)}`;
        item.append(link, when);
        if (event.venue && event.venue.venue) {
          const where = document.createElement("span");
          where.className = "where";
          where.textContent = event.venue.venue;
          item.append(where);
        }
        list.append(item);
      }
      this.dispatchEvent(new CustomEvent("almanac-rendered", { detail: { count: events.length } }));
    }
  }

  if (!customElements.get("almanac-events")) customElements.define("almanac-events", AlmanacEvents);
})();
