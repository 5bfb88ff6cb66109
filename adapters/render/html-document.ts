import { parse, type DefaultTreeAdapterMap } from "parse5";
import { escapeHtml } from "./html-text.js";

/**
 * A finished HTML document, parsed once by parse5 for the positions of its body and links, then
 * edited by position in one pass, so the rest of the markup (MSO conditional comments included)
 * stays byte for byte as the author or MJML wrote it.
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

const isElement = (node: Node): node is Element => "tagName" in node;

export class HtmlDocument {
  private constructor(
    readonly html: string,
    readonly links: readonly LocatedLink[],
    private readonly bodyStart: number,
    private readonly bodyEnd: number,
    private readonly body: { readonly start: number; readonly end: number } | null,
  ) {}

  static parse(html: string): HtmlDocument {
    const document = parse(html, { sourceCodeLocationInfo: true });
    const links: LocatedLink[] = [];
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
    const tags = bodyLocation?.startTag && bodyLocation.endTag ? { start: bodyLocation.startTag.endOffset, end: bodyLocation.endTag.startOffset } : null;
    return new HtmlDocument(html, links, bodyLocation?.startTag?.endOffset ?? 0, bodyLocation?.endTag?.startOffset ?? rootLocation?.endTag?.startOffset ?? html.length, tags);
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
