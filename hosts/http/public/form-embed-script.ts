import { blocksOf, type SavedForm } from "../../../core/forms/model.js";
import { HONEYPOT_FIELD } from "../../../core/forms/embed-snippets.js";

/**
 * `{actionUrl}/embed.js`: plain browser JavaScript, no dependencies. It renders the form where
 * its script tag stands (or into `<div data-lifecycle-form="{formId}">` when the page has one),
 * themed as the form says, and posts it as JSON to the URL the script came from, then shows the
 * success message (or follows the form's redirect) without reloading the page. Only the layout
 * and theme are inlined: lists, tags and the success action stay on the server. Everything runs
 * inside try/catch, so a broken embed never breaks the host page.
 */
const SCRIPT = `(function () {
  "use strict";
  var config = __CONFIG__;
  var script = document.currentScript;
  function luminance(hex) {
    var c = [1, 3, 5].map(function (i) {
      var v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  function el(tag, props, style) {
    var node = document.createElement(tag);
    for (var key in props) if (Object.prototype.hasOwnProperty.call(props, key)) {
      if (key === "text") node.textContent = props[key];
      else node.setAttribute(key, props[key]);
    }
    for (var name in style) if (Object.prototype.hasOwnProperty.call(style, name)) node.style[name] = style[name];
    return node;
  }
  function render() {
    var theme = config.theme;
    var gap = { compact: "8px", balanced: "12px", spacious: "18px" }[theme.density] || "12px";
    var pad = { compact: "14px", balanced: "20px", spacious: "28px" }[theme.density] || "20px";
    var radius = theme.borderRadius + "px";
    var action = script && script.src ? script.src.replace(/\\/embed\\.js(?:[?#].*)?$/, "") : config.actionUrl;
    var host = document.querySelector('[data-lifecycle-form="' + config.formId + '"]');
    var box = el("div", { "class": "lifecycle-form" }, {
      background: theme.cardColor, color: theme.textColor, border: "1px solid " + theme.borderColor, borderRadius: radius,
      padding: pad, fontFamily: theme.bodyFontFamily, maxWidth: "28rem", boxSizing: "border-box"
    });
    var form = el("form", { action: action, method: "post" }, { display: "flex", flexDirection: "column", gap: gap, margin: "0" });
    var uid = "lcf-" + Math.random().toString(36).slice(2, 10);
    config.blocks.forEach(function (block, index) {
      if (block.type === "heading") {
        form.appendChild(el("h2", { text: block.text }, { fontFamily: theme.headingFontFamily, fontSize: "1.25em", margin: "0", color: theme.textColor }));
      } else if (block.type === "text") {
        form.appendChild(el("p", { text: block.text }, { margin: "0", color: theme.mutedTextColor, lineHeight: "1.5" }));
      } else if (block.type === "submit") {
        var dark = luminance(theme.accentColor) < 0.4;
        form.appendChild(el("button", { type: "submit", text: block.text }, {
          background: theme.accentColor, color: dark ? "#ffffff" : "#000000", border: "0", borderRadius: radius,
          padding: "10px 16px", font: "inherit", fontWeight: "600", cursor: "pointer"
        }));
      } else {
        var id = uid + "-" + index;
        var names = { email: "email", first_name: "firstName", last_name: "lastName" };
        var auto = { email: "email", first_name: "given-name", last_name: "family-name" };
        var field = el("div", {}, { display: "flex", flexDirection: "column", gap: "4px" });
        field.appendChild(el("label", { "for": id, text: block.text }, { fontSize: "0.9em", fontWeight: "600" }));
        var input = el("input", { id: id, name: names[block.type], type: block.type === "email" ? "email" : "text", autocomplete: auto[block.type] }, {
          padding: "9px 11px", border: "1px solid " + theme.borderColor, borderRadius: radius, font: "inherit",
          color: theme.textColor, background: theme.backgroundColor
        });
        if (block.placeholder) input.setAttribute("placeholder", block.placeholder);
        if (block.type === "email" || block.required) input.required = true;
        field.appendChild(input);
        form.appendChild(field);
      }
    });
    var trap = el("div", { "aria-hidden": "true" }, { position: "absolute", left: "-10000px", width: "1px", height: "1px", overflow: "hidden" });
    var trapLabel = el("label", { text: "Leave empty" }, {});
    trapLabel.appendChild(el("input", { type: "text", name: "${HONEYPOT_FIELD}", tabindex: "-1", autocomplete: "off" }, {}));
    trap.appendChild(trapLabel);
    form.appendChild(trap);
    var status = el("p", { role: "status", "aria-live": "polite" }, { margin: "0", color: theme.textColor });
    var alert = el("p", { role: "alert" }, { margin: "0", color: "#b91c1c" });
    form.appendChild(alert);
    box.appendChild(form);
    box.appendChild(status);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var data = {};
      Array.prototype.forEach.call(form.elements, function (input) { if (input.name) data[input.name] = input.value; });
      var button = form.querySelector("button");
      if (button) button.disabled = true;
      alert.textContent = "";
      fetch(action, { method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" }, body: JSON.stringify(data) })
        .then(function (response) { return response.json().catch(function () { return {}; }).then(function (body) { return { ok: response.ok, body: body }; }); })
        .then(function (result) {
          if (!result.ok || !result.body.success) throw new Error(result.body.error || "Something went wrong. Please try again.");
          if (result.body.redirectUrl) { window.location.href = result.body.redirectUrl; return; }
          form.style.display = "none";
          status.textContent = result.body.message || "Thank you!";
        })
        .catch(function (error) {
          alert.textContent = error && error.message ? error.message : "Something went wrong. Please try again.";
          if (button) button.disabled = false;
        });
    });
    if (host) host.appendChild(box);
    else if (script && script.parentNode) script.parentNode.insertBefore(box, script);
  }
  try {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { try { render(); } catch (e) { /* never break the host page */ } });
    else render();
  } catch (e) { /* never break the host page */ }
})();
`;

/** JSON safe inside a script: no `</script>`, no line separators JavaScript would choke on. */
const inlineJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

export const formEmbedScript = (form: SavedForm, actionUrl: string): string =>
  SCRIPT.replace("__CONFIG__", () => inlineJson({ formId: form.id, actionUrl, blocks: blocksOf(form), theme: form.theme }));
