import { convert } from "html-to-text";

/** The text/plain part: the HTML's words and links, without hidden preview text or images. */
export const toPlainText = (html: string): string =>
  convert(html, {
    wordwrap: 78,
    selectors: [
      { selector: 'div[style*="display:none"]', format: "skip" },
      { selector: "img", format: "skip" },
      { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
      { selector: "h1", options: { uppercase: false } },
      { selector: "h2", options: { uppercase: false } },
      { selector: "h3", options: { uppercase: false } },
      { selector: "table", format: "block" },
      { selector: "tr", format: "block" },
      { selector: "td", format: "block" },
    ],
  })
    // Layout blocks (dividers, spacers) leave runs of empty lines.
    .replace(/\n[ \t]*(?:\n[ \t]*){2,}/g, "\n\n")
    .trim();
