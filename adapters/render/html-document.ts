import { parse, type DefaultTreeAdapterMap } from "parse5";
import { escapeHtml } from "./html-text.js";

/**
 * Edits of a finished HTML document at source positions found by parse5, so the rest of the
 * markup (MSO conditional comments included) stays byte for byte as the author or MJML wrote it.
 */

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

interface Located {
  readonly links: Array<{ readonly url: string; readonly start: number; readonly end: number }>;
  /** Where content goes at the end of the body (before `</body>`, else `</html>`, else the end). */
  readonly bodyEnd: number;
  /** Where content goes at the start of the body (after `<body ...>`, else the start). */
  readonly bodyStart: number;
  readonly body: Element | null;
}

const isElement = (node: Node): node is Element => "tagName" in node;

function locate(html: string): Located {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const links: Array<{ url: string; start: number; end: number }> = [];
  let body: Element | null = null;
  let root: Element | null = null;
  const visit = (node: Node): void => {
    if (isElement(node)) {
      if (node.tagName === "body") body = node;
      if (node.tagName === "html") root = node;
      if (node.tagName === "a" || node.tagName === "area") {
        const href = node.attrs.find((attr) => attr.name === "href");
        const at = node.sourceCodeLocation?.attrs?.href;
        if (href && at) links.push({ url: href.value.trim(), start: at.startOffset, end: at.endOffset });
      }
    }
    if ("childNodes" in node) for (const child of node.childNodes) visit(child);
  };
  visit(document);
  const bodyLocation = (body as Element | null)?.sourceCodeLocation;
  const rootLocation = (root as Element | null)?.sourceCodeLocation;
  return {
    links,
    body,
    bodyEnd: bodyLocation?.endTag?.startOffset ?? rootLocation?.endTag?.startOffset ?? html.length,
    bodyStart: bodyLocation?.startTag?.endOffset ?? 0,
  };
}

const splice = (html: string, start: number, end: number, text: string): string => html.slice(0, start) + text + html.slice(end);

export const insertAtBodyEnd = (html: string, snippet: string): string => {
  const at = locate(html).bodyEnd;
  return splice(html, at, at, snippet);
};

export const insertAtBodyStart = (html: string, snippet: string): string => {
  const at = locate(html).bodyStart;
  return splice(html, at, at, snippet);
};

/** The markup between `<body ...>` and `</body>`. */
export function bodyContent(html: string): string {
  const location = locate(html).body?.sourceCodeLocation;
  if (!location?.startTag || !location.endTag) return html;
  return html.slice(location.startTag.endOffset, location.endTag.startOffset);
}

export const hasLinkTo = (html: string, url: string): boolean => locate(html).links.some((link) => link.url === url);

const TRACKABLE = /^https?:\/\//i;

/** Passes every http(s) link (`<a>`, `<area>`) through `rewrite`, except those `keep` names. */
export function rewriteLinks(html: string, rewrite: (url: string) => string, keep: (url: string) => boolean): string {
  const links = locate(html).links.filter((link) => TRACKABLE.test(link.url) && !keep(link.url));
  let result = html;
  for (const link of [...links].sort((a, b) => b.start - a.start)) {
    result = splice(result, link.start, link.end, `href="${escapeHtml(rewrite(link.url))}"`);
  }
  return result;
}
