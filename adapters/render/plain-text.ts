import { compile } from "html-to-text";

/** Compiled once: html-to-text's `convert` would compile the same options on every call. */
const convert = compile({
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
});

/** The text/plain part: the HTML's words and links, without hidden preview text or images. */
export const toPlainText = (html: string): string =>
  convert(html)
    // Layout blocks (dividers, spacers) leave runs of empty lines.
    .replace(/\n[ \t]*(?:\n[ \t]*){2,}/g, "\n\n")
    .trim();
