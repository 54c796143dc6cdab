/* The event editor's enhancements; the form works without them (app/desk/events/editor.py):
   a warning before leaving with unsaved changes, the repeat builder showing only what the
   chosen frequency needs, dates previewed in place, venues searched as you type, organizer
   rows added and moved, more date fields, and a preview of a chosen image. */
(function () {
  "use strict";
  var form = document.getElementById("event-editor");
  if (!form) { return; }

  // ---- unsaved changes ----------------------------------------------------------------
  var dirty = false;
  form.addEventListener("input", function () { dirty = true; });
  form.addEventListener("change", function () { dirty = true; });
  form.addEventListener("submit", function () { dirty = false; });
  window.addEventListener("beforeunload", function (event) {
    if (!dirty) { return; }
    event.preventDefault();
    event.returnValue = form.getAttribute("data-leave-warning") || "";
    return event.returnValue;
  });

  // ---- the repeat builder -------------------------------------------------------------
  var repeat = document.getElementById("repeat");
  var details = form.querySelector(".desk-repeat-details");
  var lines = document.getElementById("repeat_lines");
  function showRepeat() {
    var chosen = repeat.value;
    details.hidden = chosen === "";
    form.querySelectorAll("[data-repeat]").forEach(function (part) {
      part.hidden = part.getAttribute("data-repeat") !== chosen;
    });
    if (lines) { lines.closest(".field").hidden = chosen !== "custom" && !lines.value; }
  }
  if (repeat && details) {
    repeat.addEventListener("change", showRepeat);
    showRepeat();
  }

  // ---- the builder's weekday and day of the month follow the start date ------------------
  // As the server does (app/desk/events/recurrence_form.py, follow_start): a field still at the
  // defaults of the day it was set for follows a new start date; one the person changed stays.
  var startDay = document.getElementById("start_day");
  var setFor = form.querySelector("input[name=repeat_defaults]");
  var DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
  function defaultsOf(text) {
    var parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text || "");
    if (!parts) { return null; }
    var day = new Date(Date.UTC(+parts[1], +parts[2] - 1, +parts[3]));
    var week = Math.floor((day.getUTCDate() - 1) / 7) + 1;
    return { weekday: DAYS[day.getUTCDay()], monthDay: String(day.getUTCDate()),
             week: String(week === 5 ? -1 : week) };
  }
  function followStart() {
    var before = defaultsOf(setFor.value);
    var after = defaultsOf(startDay.value);
    if (!before || !after || setFor.value === startDay.value) { return; }
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=repeat_weekdays]"));
    var ticked = boxes.filter(function (box) { return box.checked; });
    if (ticked.length === 1 && ticked[0].value === before.weekday) {
      boxes.forEach(function (box) { box.checked = box.value === after.weekday; });
    }
    var monthDay = document.getElementById("repeat_month_day");
    if (monthDay && monthDay.value === before.monthDay) { monthDay.value = after.monthDay; }
    var week = document.getElementById("repeat_week");
    var weekday = document.getElementById("repeat_weekday");
    if (week && weekday && week.value === before.week && weekday.value === before.weekday) {
      week.value = after.week;
      weekday.value = after.weekday;
    }
    setFor.value = startDay.value;
  }
  if (startDay && setFor) {
    startDay.addEventListener("input", followStart);
    startDay.addEventListener("change", followStart);
  }

  // ---- dates previewed in place -------------------------------------------------------
  var previewButton = document.getElementById("preview-button");
  var previewBox = document.getElementById("repeat-preview");
  if (previewButton && previewBox && window.fetch) {
    previewButton.addEventListener("click", function (event) {
      event.preventDefault();
      var data = new FormData(form);
      data.delete("image_file");
      fetch(form.getAttribute("data-preview-url"), {
        method: "POST", body: data, credentials: "same-origin"
      }).then(function (response) { return response.text(); })
        .then(function (html) {
          var parsed = new DOMParser().parseFromString(html, "text/html");
          var fragment = parsed.querySelector("#preview-fragment") || parsed.body;
          previewBox.replaceChildren.apply(previewBox, Array.prototype.slice.call(fragment.childNodes));
        });
    });
  }

  // ---- venues searched as you type (the API's list; the desk cookie signs the read in) --
  var venue = document.getElementById("venue");
  if (venue && window.fetch) {
    var field = venue.closest(".field");
    var search = document.createElement("input");
    search.type = "search";
    search.id = "venue-search";
    search.setAttribute("aria-controls", "venue");
    var searchLabel = document.createElement("label");
    searchLabel.htmlFor = search.id;
    searchLabel.textContent = form.getAttribute("data-venue-search-label") || "Search venues";
    var status = document.createElement("p");
    status.className = "help";
    status.setAttribute("aria-live", "polite");
    field.insertBefore(status, venue.nextSibling);
    field.insertBefore(search, venue);
    field.insertBefore(searchLabel, search);
    var timer = null;
    search.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () {
        var words = search.value.trim();
        var url = form.getAttribute("data-venue-search") + "?per_page=20" +
          (words ? "&search=" + encodeURIComponent(words) : "");
        fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (response) { return response.ok ? response.json() : { venues: [] }; })
          .then(function (body) {
            var keep = venue.value;
            Array.prototype.slice.call(venue.options).forEach(function (option) {
              if (/^\d+$/.test(option.value) && option.value !== keep) { option.remove(); }
            });
            (body.venues || []).forEach(function (found) {
              if (String(found.id) === keep) { return; }
              var option = document.createElement("option");
              option.value = String(found.id);
              option.textContent = found.venue;
              venue.appendChild(option);
            });
            var first = (body.venues || [])[0];
            if (first && words) { venue.value = String(first.id); }
            status.textContent = (form.getAttribute("data-found") || "Found: ") + (body.venues || []).length;
          });
      }, 250);
    });
  }

  // ---- organizer rows: add and move -----------------------------------------------------
  var list = form.querySelector(".desk-organizer-rows");
  function renumber() {
    Array.prototype.slice.call(list.children).forEach(function (row, index) {
      row.querySelectorAll("[id]").forEach(function (element) {
        element.id = element.id.replace(/-\d+$/, "-" + (index + 1));
      });
      row.querySelectorAll("label[for]").forEach(function (label) {
        label.htmlFor = label.htmlFor.replace(/-\d+$/, "-" + (index + 1));
        var number = label.querySelector(".desk-row-number");
        if (number) { number.textContent = String(index + 1); }
      });
    });
  }
  function moveButtons(row) {
    var box = document.createElement("div");
    box.className = "desk-row-tools";
    [["up", form.getAttribute("data-move-up") || "Move up"],
     ["down", form.getAttribute("data-move-down") || "Move down"]].forEach(function (pair) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.textContent = pair[1];
      button.addEventListener("click", function () {
        var other = pair[0] === "up" ? row.previousElementSibling : row.nextElementSibling;
        if (!other) { return; }
        list.insertBefore(pair[0] === "up" ? row : other, pair[0] === "up" ? other : row);
        renumber();
        dirty = true;
        button.focus();
      });
      box.appendChild(button);
    });
    row.appendChild(box);
  }
  if (list) {
    Array.prototype.slice.call(list.children).forEach(moveButtons);
    var add = document.createElement("button");
    add.type = "button";
    add.className = "secondary";
    add.textContent = form.getAttribute("data-add-organizer") || "Add organizer";
    add.addEventListener("click", function () {
      var last = list.lastElementChild;
      var row = last.cloneNode(true);
      row.querySelectorAll(".desk-row-tools").forEach(function (tools) { tools.remove(); });
      row.querySelectorAll("input").forEach(function (input) { input.value = ""; });
      row.querySelectorAll("select").forEach(function (select) { select.selectedIndex = 0; });
      list.appendChild(row);
      moveButtons(row);
      renumber();
      row.querySelector("select").focus();
    });
    list.parentNode.insertBefore(add, list.nextSibling);
  }

  // ---- more extra and excluded dates ---------------------------------------------------
  form.querySelectorAll(".desk-date-list").forEach(function (box) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = form.getAttribute("data-add-date") || "Add a date";
    button.addEventListener("click", function () {
      var fields = box.querySelectorAll(".field");
      var last = fields[fields.length - 1];
      var copy = last.cloneNode(true);
      var number = fields.length + 1;
      var input = copy.querySelector("input");
      var label = copy.querySelector("label");
      input.value = "";
      input.id = input.id.replace(/-\d+$/, "-" + number);
      label.htmlFor = input.id;
      label.textContent = label.textContent.replace(/\d+\s*$/, String(number));
      box.insertBefore(copy, button);
      input.focus();
    });
    box.appendChild(button);
  });

  // ---- the chosen image: over the limit, said at once (the form and what was typed stay) --
  var file = document.getElementById("image_file");
  var fileError = document.getElementById("image_file-error");
  if (file && fileError) {
    file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      var limit = Number(file.getAttribute("data-max-bytes")) || 0;
      if (chosen && limit && chosen.size > limit) {
        fileError.textContent = file.getAttribute("data-too-big") || "";
        fileError.hidden = false;
        file.setAttribute("aria-invalid", "true");
        file.value = "";  // not sent: the rest of the form can still be saved
        file.focus();
      } else {
        fileError.hidden = true;
        fileError.textContent = "";
        file.removeAttribute("aria-invalid");
      }
    });
  }

  // ---- the chosen image, previewed ------------------------------------------------------
  var preview = document.getElementById("image-preview");
  if (file && preview && window.FileReader) {
    file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      if (!chosen) { preview.hidden = true; return; }
      var reader = new FileReader();
      reader.onload = function () {
        preview.src = String(reader.result);
        preview.alt = (document.getElementById("image_alt") || {}).value || chosen.name;
        preview.hidden = false;
      };
      reader.readAsDataURL(chosen);
    });
  }
})();
