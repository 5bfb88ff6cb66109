import { parse, parseFragment, type DefaultTreeAdapterMap } from "parse5";
import { escapeHtml } from "./html-text.js";
import { isRefusedUrl, URL_ATTRIBUTES } from "./url-safety.js";

/**
 * A finished HTML document, parsed once by parse5 for the positions of its body and links, then
 * edited by position in one pass, so the rest of the markup (MSO conditional comments included)
 * stays byte for byte as the author or MJML wrote it. Every edit also neutralises the URL
 * attributes url-safety refuses (`javascript:` and the like become `#`); such a link is never
 * offered to `rewriteLink`, so it is never tracked.
 */

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** An `href` attribute of an `<a>` or `<area>`: its trimmed value and where the attribute is. */
export interface LocatedLink {
  readonly url: string;
  readonly start: number;
  readonly end: number;
}

export interface HtmlEdits {
  /** Inserted right after `<body ...>` (else at the start). */
  readonly atBodyStart?: string | undefined;
  /** Inserted right before `</body>` (else `</html>`, else at the end). */
  readonly atBodyEnd?: string | undefined;
  /** A link's new URL, or null to keep it. */
  readonly rewriteLink?: ((url: string) => string | null) | undefined;
}

export interface EditedHtml {
  readonly html: string;
  /** Where the body now ends (after what `atBodyEnd` inserted). */
  readonly bodyEnd: number;
}

/** Where an attribute is; `name` as written in the source. */
interface LocatedAttribute {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

const isElement = (node: Node): node is Element => "tagName" in node;

/** The attribute's name as written (`xlink:href`), by which parse5 locates it. */
const sourceNameOf = (attr: Element["attrs"][number]): string => (attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name);

/** The element's URL attributes that url-safety refuses, located from `base` (where its markup starts). */
function refusedAttributesOf(element: Element, base: number): LocatedAttribute[] {
  const refused: LocatedAttribute[] = [];
  for (const attr of element.attrs) {
    // `attr.name` is `href` for `xlink:href` too: the cheap test first, on every attribute of the document.
    if (!URL_ATTRIBUTES.has(attr.name)) continue;
    const name = sourceNameOf(attr);
    const at = element.sourceCodeLocation?.attrs?.[name];
    if (at && URL_ATTRIBUTES.has(name) && isRefusedUrl(element.tagName, name, attr.value))
      refused.push({ name, start: base + at.startOffset, end: base + at.endOffset });
  }
  return refused;
}

/** Every element under `node`, in document order (template contents included). */
function* elementsUnder(node: Node): Generator<Element> {
  if (isElement(node)) {
    yield node;
    if (node.tagName === "template") yield* elementsUnder((node as DefaultTreeAdapterMap["template"]).content);
  }
  if ("childNodes" in node) for (const child of node.childNodes) yield* elementsUnder(child);
}

/** A URL attribute's opening, to skip parsing the many conditional comments that hold none (MJML's table wrappers). */
const URL_ATTRIBUTE_OPENING = /(?:href|src|action|background|poster)\s*=/i;

/** The markup inside a conditional comment (`<!--[if mso]>...<![endif]-->`) with a URL attribute, which Outlook renders, and where it starts. */
function conditionalMarkupOf(node: Node): { markup: string; start: number } | null {
  if (node.nodeName !== "#comment") return null;
  const comment = node as DefaultTreeAdapterMap["commentNode"];
  const start = comment.sourceCodeLocation?.startOffset;
  return start !== undefined && /^\[if\b/i.test(comment.data) && URL_ATTRIBUTE_OPENING.test(comment.data)
    ? { markup: comment.data, start: start + "<!--".length }
    : null;
}

export class HtmlDocument {
  private constructor(
    readonly html: string,
    readonly links: readonly LocatedLink[],
    private readonly refused: readonly LocatedAttribute[],
    private readonly bodyStart: number,
    private readonly bodyEnd: number,
    private readonly body: { readonly start: number; readonly end: number } | null,
  ) {}

  static parse(html: string): HtmlDocument {
    // As a mail client reads it: no scripting, so <noscript> content is markup too.
    const document = parse(html, { sourceCodeLocationInfo: true, scriptingEnabled: false });
    const links: LocatedLink[] = [];
    const refused: LocatedAttribute[] = [];
    let body: Element | null = null;
    let root: Element | null = null;
    const visit = (node: Node): void => {
      const conditional = conditionalMarkupOf(node);
      if (conditional) {
        const fragment = parseFragment(conditional.markup, { sourceCodeLocationInfo: true, scriptingEnabled: false });
        for (const element of elementsUnder(fragment)) refused.push(...refusedAttributesOf(element, conditional.start));
      }
      if (isElement(node)) {
        if (node.tagName === "body") body = node;
        if (node.tagName === "html") root = node;
        refused.push(...refusedAttributesOf(node, 0));
        if (node.tagName === "a" || node.tagName === "area") {
          const href = node.attrs.find((attr) => attr.name === "href" && !attr.prefix);
          const at = node.sourceCodeLocation?.attrs?.href;
          if (href && at && !isRefusedUrl(node.tagName, "href", href.value)) links.push({ url: href.value.trim(), start: at.startOffset, end: at.endOffset });
        }
        if (node.tagName === "template") visit((node as DefaultTreeAdapterMap["template"]).content);
      }
      if ("childNodes" in node) for (const child of node.childNodes) visit(child);
    };
    visit(document);
    const bodyLocation = (body as Element | null)?.sourceCodeLocation;
    const rootLocation = (root as Element | null)?.sourceCodeLocation;
    const tags = bodyLocation?.startTag && bodyLocation.endTag ? { start: bodyLocation.startTag.endOffset, end: bodyLocation.endTag.startOffset } : null;
    return new HtmlDocument(
      html,
      links,
      refused,
      bodyLocation?.startTag?.endOffset ?? 0,
      bodyLocation?.endTag?.startOffset ?? rootLocation?.endTag?.startOffset ?? html.length,
      tags,
    );
  }

  /** The markup between `<body ...>` and `</body>` (the whole text when it has no body tags). */
  bodyContent(): string {
    return this.body ? this.html.slice(this.body.start, this.body.end) : this.html;
  }

  hasLinkTo(url: string): boolean {
    return this.links.some((link) => link.url === url);
  }

  /** Every edit at once, by the positions found when parsing. */
  edit(edits: HtmlEdits): EditedHtml {
    const splices: Array<{ start: number; end: number; text: string; bodyEnd?: true }> = [];
    if (edits.atBodyStart) splices.push({ start: this.bodyStart, end: this.bodyStart, text: edits.atBodyStart });
    for (const attr of this.refused) splices.push({ start: attr.start, end: attr.end, text: `${attr.name}="#"` });
    if (edits.rewriteLink) {
      for (const link of this.links) {
        const url = edits.rewriteLink(link.url);
        if (url !== null) splices.push({ start: link.start, end: link.end, text: `href="${escapeHtml(url)}"` });
      }
    }
    splices.push({ start: this.bodyEnd, end: this.bodyEnd, text: edits.atBodyEnd ?? "", bodyEnd: true });
    // Stable: at one position the body-start insertion stays before the body-end one.
    splices.sort((a, b) => a.start - b.start);
    let html = "";
    let from = 0;
    let bodyEnd = 0;
    for (const splice of splices) {
      html += this.html.slice(from, splice.start) + splice.text;
      from = splice.end;
      if (splice.bodyEnd) bodyEnd = html.length;
    }
    return { html: html + this.html.slice(from), bodyEnd };
  }
}

/** `snippet` inserted at `at` (an offset from `EditedHtml.bodyEnd`). */
export const insertAt = (html: string, at: number, snippet: string): string => html.slice(0, at) + snippet + html.slice(at);
