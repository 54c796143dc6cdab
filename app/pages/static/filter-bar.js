// The filter bar (templates/filter_bar.html) without a full reload, when scripts run: the
// form's GET (or its "clear" link) fetches the view's page at the address it would open,
// puts that page's main region, filter bar, search form and title in place of these,
// records the address in the history (Back and Forward load theirs the same way), keeps
// the focus where it was and says in the live region that the view changed. Without this
// script, or if a request fails, the form and the link open the page as they are.
(function () {
  "use strict";

  var status = document.querySelector("[data-filter-status]");

  function addressOf(form) {
    // The form's fields as the browser would send them, without the empty ones (the
    // cost's boxes left blank), so that the address is the one the view's links write.
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && value.trim() !== "") {
        params.append(name, value);
      }
    });
    var query = params.toString();
    return form.action.split("?")[0] + (query ? "?" + query : "");
  }

  function swap(selector, page) {
    var here = document.querySelector(selector);
    var there = page.querySelector(selector);
    if (here && there) {
      here.replaceWith(document.importNode(there, true));
    }
  }

  function focusKey(element) {
    if (!element || !element.closest("[data-filter-bar]")) {
      return null;
    }
    if (element.id) {
      return "#" + CSS.escape(element.id);
    }
    if (element.name) {
      var key = '[name="' + CSS.escape(element.name) + '"]';
      return element.value ? key + '[value="' + CSS.escape(element.value) + '"]' : key;
    }
    return element.matches("button") ? "[data-filter-bar] button[type=submit]" : null;
  }

  function load(url, remember) {
    var main = document.getElementById("main");
    var bar = document.querySelector("[data-filter-bar]");
    if (!main || !bar || !window.fetch || !window.DOMParser) {
      window.location.assign(url);
      return;
    }
    var wasOpen = bar.querySelector("details") && bar.querySelector("details").open;
    var key = focusKey(document.activeElement);
    main.setAttribute("aria-busy", "true");
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error(String(response.status));
        }
        return response.text();
      })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        if (!page.getElementById("main") || !page.querySelector("[data-filter-bar]")) {
          throw new Error("not a view");
        }
        swap("#main", page);
        swap("[data-filter-bar]", page);
        swap("form.search", page);
        document.title = page.title;
        if (remember) {
          window.history.pushState({ filterBar: true }, "", url);
        }
        var fresh = document.querySelector("[data-filter-bar]");
        enhance(fresh);
        var details = fresh.querySelector("details");
        if (details && wasOpen) {
          details.open = true;
        }
        var target = (key && fresh.querySelector(key)) || fresh.querySelector("button[type=submit]");
        if (target) {
          target.focus();
        }
        var heading = document.querySelector("#main h1");
        if (status) {
          // Emptied first: the same words again are announced again.
          status.textContent = "";
          window.setTimeout(function () {
            status.textContent = (fresh.getAttribute("data-updated") || "") +
              (heading ? " " + heading.textContent.trim() : "");
          }, 50);
        }
      })
      .catch(function () {
        window.location.assign(url);
      });
  }

  function enhance(form) {
    if (!form || form.hasAttribute("data-enhanced")) {
      return;
    }
    form.setAttribute("data-enhanced", "");
    form.addEventListener("submit", function (event) {
      if (!form.checkValidity()) {
        return;
      }
      event.preventDefault();
      load(addressOf(form), true);
    });
    var clear = form.querySelector("[data-filter-clear]");
    if (clear) {
      clear.addEventListener("click", function (event) {
        event.preventDefault();
        load(clear.href, true);
      });
    }
  }

  enhance(document.querySelector("[data-filter-bar]"));
  if (!window.history.state) {
    window.history.replaceState({ filterBar: true }, "");
  }
  // Only the entries of views (this script's): a skip link's #main is none.
  window.addEventListener("popstate", function (event) {
    if (event.state && event.state.filterBar) {
      load(window.location.href, false);
    }
  });
})();
