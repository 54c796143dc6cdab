// The desk's common enhancements (every screen works without them): a form with
// data-confirm asks before it is sent; the first error or message of a page gets the focus
// so that a screen reader reads it.
"use strict";
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});
document.addEventListener("DOMContentLoaded", () => {
  const problem = document.querySelector("[role=alert]");
  if (problem) {
    problem.setAttribute("tabindex", "-1");
    problem.focus();
  }
});
