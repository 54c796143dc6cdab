/* The description's rich-text editor: a contenteditable with a toolbar offering only the
   tags the user may keep (the buttons the server rendered). Without this script the field
   is the plain textarea of HTML it enhances; the textarea stays the form's field. */
(function () {
  "use strict";

  var COMMANDS = {
    strong: ["bold"], em: ["italic"], ul: ["insertUnorderedList"], ol: ["insertOrderedList"],
    h2: ["formatBlock", "<h2>"], h3: ["formatBlock", "<h3>"], blockquote: ["formatBlock", "<blockquote>"]
  };

  function allowedSet(box) {
    var names = (box.getAttribute("data-allowed-tags") || "").split(/\s+/).filter(Boolean);
    if (!names.length) { return null; } // editors keep any markup
    var set = {};
    names.forEach(function (name) { set[name] = true; });
    ["p", "div", "br"].forEach(function (name) { set[name] = true; });
    return set;
  }

  // Unwrap what the sanitiser would drop anyway, and every on* attribute.
  function clean(node, allowed) {
    Array.prototype.slice.call(node.children).forEach(function (child) {
      clean(child, allowed);
      Array.prototype.slice.call(child.attributes).forEach(function (attr) {
        if (/^on/i.test(attr.name) || attr.name === "style") { child.removeAttribute(attr.name); }
      });
      if (allowed && !allowed[child.tagName.toLowerCase()]) {
        while (child.firstChild) { node.insertBefore(child.firstChild, child); }
        node.removeChild(child);
      }
    });
  }

  function enhance(box) {
    var area = box.querySelector("textarea");
    var toolbar = box.querySelector(".desk-toolbar");
    var label = box.querySelector("label");
    if (!area || !toolbar || typeof document.execCommand !== "function") { return; }
    var allowed = allowedSet(box);
    var editor = document.createElement("div");
    editor.className = "desk-richtext-area";
    editor.id = area.id + "-editor";
    editor.contentEditable = "true";
    editor.setAttribute("role", "textbox");
    editor.setAttribute("aria-multiline", "true");
    editor.setAttribute("aria-labelledby", label.id);
    if (area.getAttribute("aria-describedby")) {
      editor.setAttribute("aria-describedby", area.getAttribute("aria-describedby"));
    }
    editor.innerHTML = area.value;
    clean(editor, allowed);
    area.hidden = true;
    label.setAttribute("for", editor.id);
    toolbar.setAttribute("aria-controls", editor.id);
    area.parentNode.insertBefore(editor, area);
    toolbar.hidden = false;
    var help = box.querySelector("[data-enhanced]");
    if (help) { help.textContent = help.getAttribute("data-enhanced"); }

    function sync() {
      clean(editor, allowed);
      area.value = editor.innerHTML;
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
    editor.addEventListener("input", sync);
    editor.addEventListener("paste", function (event) {
      event.preventDefault(); // pasted markup would bring what the toolbar does not offer
      var text = (event.clipboardData || window.clipboardData).getData("text/plain");
      document.execCommand("insertText", false, text);
    });
    label.addEventListener("click", function () { editor.focus(); });
    toolbar.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-tag]");
      if (!button) { return; }
      var tag = button.getAttribute("data-tag");
      editor.focus();
      if (tag === "a") {
        var address = window.prompt(button.getAttribute("data-prompt") || "URL", "https://");
        if (address && /^(https?:|mailto:|tel:)/i.test(address)) {
          document.execCommand("createLink", false, address);
        }
      } else if (COMMANDS[tag]) {
        document.execCommand(COMMANDS[tag][0], false, COMMANDS[tag][1] || null);
      }
      sync();
    });
    // Arrow keys move between the toolbar's buttons (one tab stop, as ARIA's toolbar).
    var buttons = Array.prototype.slice.call(toolbar.querySelectorAll("button"));
    buttons.forEach(function (button, index) {
      button.tabIndex = index === 0 ? 0 : -1;
      button.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) { return; }
        var next = buttons[(index + step + buttons.length) % buttons.length];
        button.tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
        event.preventDefault();
      });
    });
  }

  document.querySelectorAll(".desk-richtext").forEach(enhance);
})();
