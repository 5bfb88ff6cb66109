import { compile } from "html-to-text";

/**
 * Every block is a paragraph: a blank line before and after, whatever the element (MJML's layout
 * tables included). So a block's text does not depend on which element holds it, and a recipient's
 * field can be turned into text on its own (PreparedDocument). Lines are not wrapped: the
 * transfer encoding keeps lines short, and a wrap would move with every merge value.
 */
const paragraph = (selector: string) => ({ selector, format: "block", options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } });

/** Compiled once: html-to-text's `convert` would compile the same options on every call. */
const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'div[style*="display:none"]', format: "skip" },
    { selector: "img", format: "skip" },
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
    { selector: "h1", options: { uppercase: false } },
    { selector: "h2", options: { uppercase: false } },
    { selector: "h3", options: { uppercase: false } },
    { selector: "ul", options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    { selector: "ol", options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    ...["div", "table", "tr", "td", "th", "article", "aside", "footer", "form", "header", "main", "nav", "section"].map(paragraph),
  ],
});

/** The converter's own text of the HTML (the text part before tidyPlainText). */
export const plainTextOf = (html: string): string => convert(html);

/** Layout blocks (dividers, spacers) leave runs of empty lines: one is kept, and no line ends in spaces; a line's indentation (a list's ` * `) stays. */
export const tidyPlainText = (text: string): string =>
  text
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\s+$/g, "");

/** The text/plain part: the HTML's words and links, without hidden preview text or images. */
export const toPlainText = (html: string): string => tidyPlainText(plainTextOf(html));
