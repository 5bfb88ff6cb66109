import type { HostedPage } from "../../../core/landing-pages/hosted-page.js";
import type { BlockSlot, LandingBlock } from "../../../core/landing-pages/model.js";
import { FIELD_OF_BLOCK, blocksOf, type SavedForm } from "../../../core/forms/model.js";
import { HONEYPOT_FIELD } from "../../../core/forms/embed-snippets.js";
import { escapeHtml } from "../../../core/shared/escape-html.js";

const DEFAULTS = {
  primaryColor: "#1d4ed8",
  backgroundColor: "#ffffff",
  textColor: "#18181b",
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif",
};

/** Relative luminance of a #rrggbb color (WCAG). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** Black or white, whichever reads better on `background`. */
const readableOn = (background: string): string => (luminance(background) < 0.4 ? "#ffffff" : "#000000");

/**
 * The page's form: a plain HTML form posting to the form's actionUrl on this same server (a
 * relative address, so it works whatever BASE_URL says), carrying the page's ID so the signup
 * counts as its conversion.
 */
function formHtml(form: SavedForm, landingPageId: string): string {
  const fields = blocksOf(form).map((block, index) => {
    switch (block.type) {
      case "heading":
        return `<h2>${escapeHtml(block.text)}</h2>`;
      case "text":
        return `<p>${escapeHtml(block.text)}</p>`;
      case "submit":
        return `<button type="submit">${escapeHtml(block.text)}</button>`;
      default: {
        const id = `field-${index}`;
        const required = block.type === "email" || block.required ? " required" : "";
        const type = block.type === "email" ? "email" : "text";
        const autocomplete = block.type === "email" ? "email" : block.type === "first_name" ? "given-name" : "family-name";
        return `<label for="${id}">${escapeHtml(block.text)}</label>\n<input id="${id}" type="${type}" name="${FIELD_OF_BLOCK[block.type]}" autocomplete="${autocomplete}"${required}>`;
      }
    }
  });
  return `<form class="signup" action="/api/v1/forms/${encodeURIComponent(form.id)}" method="post">
${fields.join("\n")}
<input type="hidden" name="landingPageId" value="${escapeHtml(landingPageId)}">
<div class="trap" aria-hidden="true"><label>Leave empty <input type="text" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></label></div>
</form>`;
}

function blockHtml(block: LandingBlock, hosted: HostedPage, firstHeading: boolean): string {
  switch (block.type) {
    case "heading":
      return firstHeading ? `<h1>${escapeHtml(block.text ?? "")}</h1>` : `<h2>${escapeHtml(block.text ?? "")}</h2>`;
    case "text":
      return `<p>${escapeHtml(block.text ?? "")}</p>`;
    case "image":
      return block.src ? `<img src="${escapeHtml(block.src)}" alt="${escapeHtml(block.alt ?? "")}">` : "";
    case "button":
      return block.url ? `<p><a class="button" href="${escapeHtml(block.url)}">${escapeHtml(block.text ?? "")}</a></p>` : "";
    case "list":
      return `<ul>${(block.items ?? []).map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;
    case "form":
      return hosted.form ? formHtml(hosted.form, hosted.page.id) : "";
    case "footer":
      return `<p>${escapeHtml(block.text ?? "")}</p>`;
  }
}

/**
 * A landing page as complete, responsive HTML: title and description from `seo`, colours and
 * font from `theme`, the slots in order (top in the header, hero, form and body in main, the
 * footer last). Every text is escaped; no script runs. A preview is marked and never indexed.
 */
export function landingPageHtml(hosted: HostedPage, options: { preview: boolean }): string {
  const { page } = hosted;
  const { content } = page;
  const theme = { ...DEFAULTS, ...content.theme };
  const title = content.seo.title ?? page.name;
  const firstHeading = content.blocks.find((block) => block.type === "heading");
  const slot = (name: BlockSlot) =>
    content.blocks
      .filter((block) => block.slot === name)
      .map((block) => blockHtml(block, hosted, block === firstHeading))
      .filter((html) => html !== "")
      .join("\n");
  const section = (name: BlockSlot) => {
    const html = slot(name);
    return html ? `<section class="${name}">\n${html}\n</section>` : "";
  };
  const top = slot("top");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${content.seo.description ? `<meta name="description" content="${escapeHtml(content.seo.description)}">\n` : ""}<meta property="og:title" content="${escapeHtml(title)}">
${options.preview ? '<meta name="robots" content="noindex">\n' : ""}<style>
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; background: ${theme.backgroundColor}; color: ${theme.textColor}; font-family: ${theme.fontFamily}; line-height: 1.6; }
  header, main, footer { max-width: 44rem; margin: 0 auto; padding: 1.5rem; }
  .hero { padding: 3rem 0 1.5rem; }
  h1 { font-size: clamp(2rem, 5vw, 3rem); line-height: 1.15; margin: 0 0 1rem; }
  h2 { font-size: 1.4rem; margin: 1.5rem 0 0.75rem; }
  img { max-width: 100%; height: auto; }
  a { color: ${theme.primaryColor}; }
  .button, button { display: inline-block; background: ${theme.primaryColor}; color: ${readableOn(theme.primaryColor)}; border: 0; border-radius: 8px; padding: 0.75rem 1.25rem; font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
  .signup { display: flex; flex-direction: column; gap: 0.5rem; max-width: 26rem; padding: 1.5rem; border: 1px solid ${theme.textColor}33; border-radius: 12px; }
  .signup label { font-weight: 600; }
  .signup input { font: inherit; padding: 0.6rem 0.75rem; border: 1px solid ${theme.textColor}88; border-radius: 8px; color: ${theme.textColor}; background: ${theme.backgroundColor}; }
  .signup button { margin-top: 0.5rem; }
  .trap { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
  .preview { background: #fef3c7; color: #78350f; text-align: center; padding: 0.5rem; margin: 0; }
  footer { font-size: 0.9rem; border-top: 1px solid ${theme.textColor}22; }
</style>
</head>
<body>
${options.preview ? '<p class="preview" role="note">Preview: this page is not published.</p>\n' : ""}${top ? `<header>\n${top}\n</header>\n` : ""}<main>
${[section("hero"), section("form"), section("body")].filter(Boolean).join("\n")}
</main>
<footer>
${slot("footer")}
</footer>
</body>
</html>
`;
}
