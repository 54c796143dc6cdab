/* <almanac-events>: upcoming events of an almanac site on a page of another site.
 *
 *   <script src="https://calendar.example.org/embed.js" async></script>
 *   <almanac-events view="list" category="music" limit="5" lang="de">
 *     <a href="https://calendar.example.org/events/">Our calendar</a>
 *   </almanac-events>
 *
 * Attributes: view (list, or month: the events of this month by day), month (YYYY-MM, the
 * month view's month; the visitor's current month by default), category, tag (slugs),
 * venue (an ID), limit (1-50, default 5), lang (en, de, sk). The element reads the JSON API
 * of the site this script came from (that site's CORS_ORIGINS must name the embedding page's
 * origin) and is styled by the same custom properties as the site (--almanac-*). Its
 * children show until the events arrive, and stay when scripts do not run. */
(() => {
  "use strict";
  const script = document.currentScript;
  const site = script ? new URL(script.src).origin : location.origin;
  const LANGUAGES = ["en", "de", "sk"];
  const PAGE = 100; // the API's largest page
  const PAGES = 10; // pages read for one month at most

  /** "YYYY-MM-DD HH:MM:SS" (a wall time of the site) as a Date whose UTC fields are it. */
  const wallTime = (text) => {
    const [d, t = "00:00:00"] = String(text).split(/[ T]/);
    const [year, month, number] = d.split("-").map(Number);
    const [hour = 0, minute = 0, second = 0] = t.split(":").map(Number);
    return new Date(Date.UTC(year, month - 1, number, hour, minute, second));
  };
  const isoDay = (moment) => moment.toISOString().slice(0, 10); // of a Date held as UTC
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

    /** The month shown by view="month": [year, month (1-12)]. */
    month() {
      const asked = /^(\d{4})-(\d{2})$/.exec(this.getAttribute("month") || "");
      if (asked && +asked[2] >= 1 && +asked[2] <= 12) return [+asked[1], +asked[2]];
      const now = new Date(); // the visitor's own calendar: their year and month
      return [now.getFullYear(), now.getMonth() + 1];
    }

    query() {
      const lang = this.getAttribute("lang");
      const prefix = LANGUAGES.includes(lang) ? `/${lang}` : "";
      const limit = Math.min(50, Math.max(1, parseInt(this.getAttribute("limit") || "5", 10) || 5));
      const params = new URLSearchParams({ per_page: String(limit) });
      if (this.getAttribute("view") === "month") {
        // Calendar days written from their numbers, never through toISOString (a visitor's
        // midnight east of UTC is the day before in UTC). Whole days in the site's zone, as
        // the month page reads them: events that end after the day before the month starts
        // and start before the month's last day is over - those that began earlier or end
        // later included.
        const [year, month] = this.month();
        params.set("ends_after", isoDay(new Date(Date.UTC(year, month - 1, 0))));
        params.set("starts_before", isoDay(new Date(Date.UTC(year, month, 0))));
        params.set("per_page", String(PAGE));
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
      const events = [];
      try {
        // The month view reads every page of its month (a bound keeps a runaway list short).
        let next = url;
        for (let read = 0; next && read < (this.getAttribute("view") === "month" ? PAGES : 1); read++) {
          const response = await fetch(next, { headers: { Accept: "application/json" } });
          if (!response.ok) return; // the fallback children stay
          const body = await response.json();
          events.push(...(body.events || []));
          next = body.next_rest_url;
        }
      } catch (error) {
        return;
      }
      if (this.loading === url) this.render(events);
    }

    render(events) {
      const lang = this.getAttribute("lang") || document.documentElement.lang || "en";
      const prefix = LANGUAGES.includes(this.getAttribute("lang")) ? `/${this.getAttribute("lang")}` : "";
      // Wall times are shown as the site wrote them: held as UTC and formatted in UTC, so the
      // visitor's own zone never moves an event to another day or hour.
      const day = new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
      const time = new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
      const root = this.shadowRoot || this.attachShadow({ mode: "open" });
      root.replaceChildren();
      const style = document.createElement("style");
      style.textContent = STYLE;
      root.append(style);
      const item = (event) => {
        const start = wallTime(event.start_date);
        const entry = document.createElement("li");
        const link = document.createElement("a");
        link.href = prefix && event.url.startsWith(`${site}/`)
          ? `${site}${prefix}${event.url.slice(site.length)}` : event.url;
        link.textContent = event.title;
        const when = document.createElement("time");
        when.dateTime = event.start_date.replace(" ", "T");
        when.textContent = event.all_day ? day.format(start) : `${day.format(start)}, ${time.format(start)}`;
        entry.append(link, when);
        if (event.venue && event.venue.venue) {
          const where = document.createElement("span");
          where.className = "where";
          where.textContent = event.venue.venue;
          entry.append(where);
        }
        return entry;
      };
      let shown = 0;
      if (this.getAttribute("view") === "month") {
        // Each day of the month with the events on it, a multi-day event on each of its days
        // (an end at midnight does not reach the next day), as the month page lays them out.
        const [year, month] = this.month();
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
        for (let number = 1; number <= last; number++) {
          const first = Date.UTC(year, month - 1, number);
          const following = Date.UTC(year, month - 1, number + 1);
          const on = events.filter((event) => {
            const start = wallTime(event.start_date).getTime();
            const end = wallTime(event.end_date || event.start_date).getTime();
            return start < following && (start >= first || end > first);
          });
          if (!on.length) continue;
          const title = document.createElement("h3");
          const date = document.createElement("time");
          date.dateTime = isoDay(new Date(first));
          date.textContent = day.format(new Date(first));
          title.append(date);
          const list = document.createElement("ul");
          list.append(...on.map(item));
          root.append(title, list);
          shown += on.length;
        }
      } else {
        const list = document.createElement("ul");
        list.append(...events.map(item));
        root.append(list);
        shown = events.length;
      }
      this.dispatchEvent(new CustomEvent("almanac-rendered", { detail: { count: shown } }));
    }
  }

  if (!customElements.get("almanac-events")) customElements.define("almanac-events", AlmanacEvents);
})();
