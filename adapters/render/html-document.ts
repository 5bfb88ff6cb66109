import { defaultTreeAdapter, html as namespaces, parse, parseFragment, type DefaultTreeAdapterMap } from "parse5";
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

/** An `href` attribute of an `<a>` or `<area>`: its trimmed value (and as written), where the attribute is, and the text the link holds. */
export interface LocatedLink {
  readonly url: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
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

/** The text under `node`, as a plain-text converter sees a link's words. */
const textUnder = (node: Node): string =>
  node.nodeName === "#text" ? (node as DefaultTreeAdapterMap["textNode"]).value : "childNodes" in node ? node.childNodes.map(textUnder).join("") : "";

/** A URL attribute (url-safety's list): its element, name as written, decoded value and place; for a link's `href`, the text the link holds. */
export interface LocatedUrl {
  readonly element: string;
  readonly name: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
  /** The `href` of an `<a>` or `<area>` outside conditional comments, which click tracking may rewrite. */
  readonly link: boolean;
  readonly text: string;
}

/** Elements whose content is text, not markup. */
const RAW_TEXT: ReadonlySet<string> = new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "plaintext"]);

/** Every URL attribute under `root` (those inside conditional comments too), and its `<html>` and `<body>` elements; `texts` also collects where its text nodes are. */
function locate(root: Node, texts?: Array<{ start: number; end: number }>): { urls: LocatedUrl[]; body: Element | null; root: Element | null } {
  const urls: LocatedUrl[] = [];
  let body: Element | null = null;
  let html: Element | null = null;
  const collect = (element: Element, base: number, links: boolean): void => {
    for (const attr of element.attrs) {
      // `attr.name` is `href` for `xlink:href` too: the cheap test first, on every attribute of the document.
      if (!URL_ATTRIBUTES.has(attr.name)) continue;
      const name = sourceNameOf(attr);
      const at = element.sourceCodeLocation?.attrs?.[name];
      if (!at || !URL_ATTRIBUTES.has(name)) continue;
      const link = links && name === "href" && (element.tagName === "a" || element.tagName === "area");
      urls.push({
        element: element.tagName,
        name,
        value: attr.value,
        start: base + at.startOffset,
        end: base + at.endOffset,
        link,
        text: link ? textUnder(element) : "",
      });
    }
  };
  const visit = (node: Node, parent: string): void => {
    const conditional = conditionalMarkupOf(node);
    if (conditional) {
      const fragment = parseFragment(conditional.markup, { sourceCodeLocationInfo: true, scriptingEnabled: false });
      for (const element of elementsUnder(fragment)) collect(element, conditional.start, false);
    }
    if (texts && node.nodeName === "#text" && !RAW_TEXT.has(parent)) {
      const at = (node as DefaultTreeAdapterMap["textNode"]).sourceCodeLocation;
      if (at) texts.push({ start: at.startOffset, end: at.endOffset });
    }
    if (isElement(node)) {
      if (node.tagName === "body") body = node;
      if (node.tagName === "html") html = node;
      collect(node, 0, true);
      if (node.tagName === "template") visit((node as DefaultTreeAdapterMap["template"]).content, "template");
    }
    if ("childNodes" in node) for (const child of node.childNodes) visit(child, isElement(node) ? node.tagName : parent);
  };
  visit(root, "");
  return { urls, body, root: html };
}

const isRefused = (url: LocatedUrl): boolean => isRefusedUrl(url.element, url.name, url.value);

/** Markup that a fragment may not hold to parse alike anywhere: comments, raw text, foreign content, document structure, table parts. */
const CONTEXT_DEPENDENT =
  /<(?:!|\?|\/?(?:script|style|textarea|title|xmp|iframe|noembed|noframes|noscript|plaintext|template|svg|math|html|head|body|frameset|frame|form|select|option|optgroup|caption|colgroup|col|tbody|thead|tfoot|tr|td|th)[\s/>])/i;

/** Appended to a fragment to see where its markup ends. */
const END_MARK = "<i data-lifecycle-end></i>";
const END_TAG = /<\/[a-zA-Z]/g;

export class HtmlDocument {
  readonly links: readonly LocatedLink[];
  private readonly refused: readonly LocatedAttribute[];

  private constructor(
    readonly html: string,
    /** Every URL attribute, refused or not. */
    readonly urls: readonly LocatedUrl[],
    private readonly bodyStart: number,
    /** Where the body's content ends. */
    readonly bodyEnd: number,
    private readonly body: { readonly start: number; readonly end: number } | null,
    /** Where the text nodes are (not those of raw-text elements), when asked for. */
    readonly texts: ReadonlyArray<{ readonly start: number; readonly end: number }> = [],
  ) {
    this.links = urls
      .filter((url) => url.link && !isRefused(url))
      .map((url) => ({ url: url.value.trim(), value: url.value, start: url.start, end: url.end, text: url.text }));
    this.refused = urls.filter(isRefused);
  }

  /** `texts`: also note where the text nodes are. */
  static parse(html: string, options: { texts?: boolean } = {}): HtmlDocument {
    // As a mail client reads it: no scripting, so <noscript> content is markup too.
    const document = parse(html, { sourceCodeLocationInfo: true, scriptingEnabled: false });
    const texts = options.texts ? [] : undefined;
    const { urls, body, root } = locate(document, texts);
    const bodyLocation = body?.sourceCodeLocation;
    const rootLocation = root?.sourceCodeLocation;
    const tags = bodyLocation?.startTag && bodyLocation.endTag ? { start: bodyLocation.startTag.endOffset, end: bodyLocation.endTag.startOffset } : null;
    return new HtmlDocument(
      html,
      urls,
      bodyLocation?.startTag?.endOffset ?? 0,
      bodyLocation?.endTag?.startOffset ?? rootLocation?.endTag?.startOffset ?? html.length,
      tags,
      texts,
    );
  }

  /**
   * Markup that parses the same wherever it stands among a document's text (inside a `<div>`,
   * `<h1>` or `<li>`), or null: every element it opens is closed, every end tag closes one of
   * its own, it ends outside any tag, and it holds nothing whose parsing depends on its
   * surroundings. Its links and edits are then those it would have inside the whole document.
   */
  static parseSelfContained(html: string): HtmlDocument | null {
    if (CONTEXT_DEPENDENT.test(html)) return null;
    const context = defaultTreeAdapter.createElement("div", namespaces.NS.HTML, []);
    const fragment = parseFragment(context, html + END_MARK, { sourceCodeLocationInfo: true, scriptingEnabled: false });
    const last = fragment.childNodes.at(-1);
    if (!last || !isElement(last) || last.tagName !== "i" || last.sourceCodeLocation?.startOffset !== html.length) return null;
    let closed = 0;
    for (const element of elementsUnder(fragment)) if (element.sourceCodeLocation?.endTag && element !== last) closed++;
    if (closed !== (html.match(END_TAG)?.length ?? 0)) return null;
    return new HtmlDocument(html, locate(fragment).urls, 0, html.length, null);
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
