import { escapeHtml } from "../shared/escape-html.js";
import { FIELD_OF_BLOCK, blocksOf, type SavedForm } from "./model.js";
import { formActionUrl, formScriptUrl } from "./urls.js";

/** The honeypot: people never see or fill it; a bot that fills every field reveals itself. */
export const HONEYPOT_FIELD = "website";

/**
 * What a company pastes into its site: the script (renders the themed form where it stands and
 * submits without leaving the page), or a plain HTML form that works without JavaScript.
 */
export function embedSnippets(form: SavedForm, baseUrl: string): { script: string; html: string } {
  const action = escapeHtml(formActionUrl(baseUrl, form.id));
  const fields = blocksOf(form).map((block, index) => {
    switch (block.type) {
      case "heading":
        return `  <h2>${escapeHtml(block.text)}</h2>`;
      case "text":
        return `  <p>${escapeHtml(block.text)}</p>`;
      case "submit":
        return `  <button type="submit">${escapeHtml(block.text)}</button>`;
      default: {
        const name = FIELD_OF_BLOCK[block.type];
        const id = `lc-${form.id}-${index}`;
        const required = block.type === "email" || block.required ? " required" : "";
        const type = block.type === "email" ? "email" : "text";
        const autocomplete = block.type === "email" ? "email" : block.type === "first_name" ? "given-name" : "family-name";
        return `  <label for="${escapeHtml(id)}">${escapeHtml(block.text)}</label>\n  <input id="${escapeHtml(id)}" type="${type}" name="${name}" autocomplete="${autocomplete}"${required}>`;
      }
    }
  });
  const honeypot = `  <div aria-hidden="true" style="position:absolute;left:-10000px"><label>Leave empty <input type="text" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></label></div>`;
  return {
    script: `<script src="${escapeHtml(formScriptUrl(baseUrl, form.id))}" async></script>`,
    html: `<form action="${action}" method="post">\n${[...fields, honeypot].join("\n")}\n</form>`,
  };
}
