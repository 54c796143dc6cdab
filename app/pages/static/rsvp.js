// An event page's RSVP forms, sent without a full reload when scripts run: an answer
// opens the attendee's page, as the form's own post does; a refusal puts the ticket's box
// the server answered (its messages at their fields, a new time stamp) in place of the old
// one and moves the focus to the first message. Without this script (or if a request
// fails) each form posts as it is: the pages need no script.
(function () {
  "use strict";

  function focusFirstMessage(box) {
    var target = box.querySelector("[aria-invalid=true]") || box.querySelector("[role=alert]");
    if (!target) {
      return;
    }
    if (!target.matches("input, select, textarea, button")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus();
  }

  function enhance(form) {
    form.addEventListener("submit", function (event) {
      var box = form.closest(".ticket");
      if (!box || !window.fetch || !window.DOMParser) {
        return;
      }
      event.preventDefault();
      var button = form.querySelector("button[type=submit]");
      if (button) {
        button.disabled = true;
      }
      fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
        .then(function (response) {
          if (response.redirected) {
            window.location.assign(response.url + "#answer");
            return null;
          }
          return response.text().then(function (html) {
            var page = new DOMParser().parseFromString(html, "text/html");
            var fresh = page.getElementById(box.id);
            if (!fresh) {
              form.submit();  // not an answer of this form: the page says what it is
              return;
            }
            var adopted = document.importNode(fresh, true);
            box.replaceWith(adopted);
            adopted.querySelectorAll("form.rsvp").forEach(enhance);
            focusFirstMessage(adopted);
          });
        })
        .catch(function () {
          form.submit();
        });
    });
  }

  document.querySelectorAll(".ticket form.rsvp").forEach(enhance);
})();
