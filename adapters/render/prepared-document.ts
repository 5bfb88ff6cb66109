import { FIELD_SLOT, type Field } from "./field-slots.js";
import { HtmlDocument, type LocatedUrl } from "./html-document.js";
import { escapeHtml } from "./html-text.js";
import { plainTextOf, tidyPlainText } from "./plain-text.js";
import { isRefusedUrl } from "./url-safety.js";

/**
 * A compiled email whose merge-filled fields are stand-ins (FieldSlots), parsed and turned into
 * text once, so that each recipient's copy is made by filling values in at known places: the
 * HTML by splicing, the text part by substituting each field's own text. It gives exactly what
 * filling the stand-ins and then parsing, editing and converting the whole document gives
 * (HtmlDocument and the plain-text converter), or null for a recipient whose values it cannot
 * place that way (an HTML value that does not parse alike on its own, a link whose text part
 * depends on its whole document); the caller then takes the whole-document way.
 */

/** How a recipient's links are edited. */
export interface RecipientLinks {
  /** Click tracking: a link's new URL, or null to keep it. */
  readonly track: (url: string) => string | null;
  readonly unsubscribeUrl: string;
}

export interface FilledDocument {
  readonly html: string;
  /** Where the body's content ends. */
  readonly bodyEnd: number;
  /** The text part, as the plain-text converter writes the whole HTML. */
  readonly text: string;
  readonly hasUnsubscribeLink: boolean;
}

const START = "lifecycle-start-7f3a9c";

const BLOCK =
  /<(?:p|div|h[1-6]|ul|ol|li|dl|dt|dd|table|blockquote|pre|hr|article|aside|footer|header|main|nav|section|form|address|figure|figcaption|fieldset|details|summary|center)[\s/>]/i;

/** A link whose URL the text part shows as a stand-in, filled per recipient. */
const linkSlot = (index: number): string => `lifecycle-link-${index}-7f3a9c`;
const LINK_SLOT = /lifecycle-link-(\d+)-7f3a9c/g;
const TOKENS = new RegExp(`${FIELD_SLOT.source}|${LINK_SLOT.source}`, "g");

/** The plain-text converter's white space (html-to-text's default). */
const WHITE_SPACE = /[ \t\r\n\f\u200b]+/g;
const collapse = (text: string): string => text.replace(WHITE_SPACE, " ").trim();

/**
 * The URL a link's text part shows (`final` as the `href` holds it), or null when it shows none
 * or none that a stand-in can take the place of: the converter shows no URL for an anchor, and
 * none when it equals the link's words.
 */
function shownUrl(final: string, linkText: string): string | null {
  const shown = final.replace(/^mailto:/, "");
  if (shown === "" || shown.startsWith("#") || shown === linkText.replace(WHITE_SPACE, "") || shown === linkText) return null;
  return shown.replace(WHITE_SPACE, " ");
}

/** A recipient's link: its URL and the words it holds (fields as stand-ins), which decide how the text part shows it. */
interface FilledLink {
  readonly final: string;
  readonly text: string;
}

/** Whether a text holds a stand-in (FIELD_SLOT is global, and `test` would move its position). */
const hasFieldSlot = (text: string): boolean => new RegExp(FIELD_SLOT.source).test(text);

/** An HTML field's value that parses alike on its own: its links, and its text part with a stand-in for each link's URL. */
class Fragment {
  private plainText: string | undefined;
  /** Whether it holds a block (a paragraph, a list), whose text a list item around it would space and indent as its own. */
  readonly hasBlocks: boolean;

  constructor(private readonly document: HtmlDocument) {
    this.hasBlocks = BLOCK.test(document.html);
  }

  /** The HTML and the links for one recipient. */
  edit(links: RecipientLinks): { html: string; filled: FilledLink[]; hasUnsubscribeLink: boolean } {
    const filled: FilledLink[] = [];
    let hasUnsubscribeLink = false;
    // `edit` offers the links in their order.
    const { html } = this.document.edit({
      rewriteLink: (url) => {
        const final = links.track(url);
        if (url === links.unsubscribeUrl) hasUnsubscribeLink = true;
        const link = this.document.links[filled.length];
        filled.push({ final: final ?? link?.value ?? url, text: link?.text ?? "" });
        return final;
      },
    });
    return { html, filled, hasUnsubscribeLink };
  }

  /** The text part with a stand-in for every link (tracked or not, its URL is the recipient's). */
  text(): string {
    if (this.plainText === undefined) {
      let index = 0;
      // After a paragraph, as at the start of the line its stand-in holds: the converter trims the start of a whole text (a list's first ` * `).
      const text = plainTextOf(`<p>${START}</p>${this.document.edit({ rewriteLink: () => linkSlot(index++) }).html}`);
      this.plainText = text.slice(text.indexOf(START) + START.length).replace(/^\n+/, "");
    }
    return this.plainText;
  }
}

const MAX_CACHED_FRAGMENTS = 2_000;
const MAX_CACHED_FRAGMENT_LENGTH = 100_000;

/** HTML field values seen before (most recipients of a campaign share most of them), analysed once. */
export class Fragments {
  private readonly cache = new Map<string, Fragment | null>();

  of(html: string): Fragment | null {
    let fragment = this.cache.get(html);
    if (fragment === undefined) {
      const document = HtmlDocument.parseSelfContained(html);
      fragment = document && new Fragment(document);
      if (html.length <= MAX_CACHED_FRAGMENT_LENGTH) {
        if (this.cache.size >= MAX_CACHED_FRAGMENTS) this.cache.clear();
        this.cache.set(html, fragment);
      }
    }
    return fragment;
  }
}

/** What stands between the template's fixed runs of markup. */
type Part =
  | { readonly kind: "markup"; readonly markup: string }
  | { readonly kind: "field"; readonly index: number; readonly inText: boolean }
  /** A URL attribute a recipient's values or tracking may change; `link` its index among the text part's link stand-ins, or -1. */
  | { readonly kind: "url"; readonly url: LocatedUrl; readonly raw: string; readonly link: number }
  | { readonly kind: "bodyEnd" };

export class PreparedDocument {
  private constructor(
    private readonly parts: readonly Part[],
    /** The text part, fields and links as stand-ins. */
    private readonly text: string,
    /** By field: the text before its stand-in on its line (a list item's ` * `), by which the converter indents the lines it adds. */
    private readonly prefixes: ReadonlyMap<number, string>,
    /** The URLs of links kept as they are (not tracked), to tell whether one is the recipient's unsubscribe link. */
    private readonly fixedLinks: ReadonlySet<string>,
    private readonly linkCount: number,
  ) {}

  /** `tracking`: whether recipients' links may be rewritten (click tracking is on). */
  static prepare(template: string, tracking: boolean): PreparedDocument {
    const document = HtmlDocument.parse(template, { texts: true });
    const parts: Part[] = [];
    const fixedLinks = new Set<string>();
    // The text part's source: links a recipient's values or tracking change become stand-ins.
    const textEdits: Array<{ start: number; end: number; text: string }> = [];
    let links = 0;
    const edits: Array<{ start: number; end: number; part: Part }> = [];
    for (const url of document.urls) {
      const raw = template.slice(url.start, url.end);
      if (hasFieldSlot(raw)) {
        const link = url.link ? links++ : -1;
        if (link >= 0) textEdits.push({ start: url.start, end: url.end, text: `href="${linkSlot(link)}"` });
        edits.push({ start: url.start, end: url.end, part: { kind: "url", url, raw, link } });
      } else if (isRefusedUrl(url.element, url.name, url.value)) {
        const markup = `${url.name}="#"`;
        textEdits.push({ start: url.start, end: url.end, text: markup });
        edits.push({ start: url.start, end: url.end, part: { kind: "markup", markup } });
      } else if (url.link && tracking && /^https?:\/\//i.test(url.value.trim())) {
        const link = links++;
        textEdits.push({ start: url.start, end: url.end, text: `href="${linkSlot(link)}"` });
        edits.push({ start: url.start, end: url.end, part: { kind: "url", url, raw, link } });
      } else if (url.link) fixedLinks.add(url.value.trim());
    }
    const inAttribute = (at: number): boolean => document.urls.some((url) => url.start <= at && at < url.end && edits.some((edit) => edit.start === url.start));
    const inText = (at: number): boolean => document.texts.some((text) => text.start <= at && at < text.end);
    for (const match of template.matchAll(FIELD_SLOT)) {
      if (inAttribute(match.index)) continue;
      edits.push({ start: match.index, end: match.index + match[0].length, part: { kind: "field", index: Number(match[1]), inText: inText(match.index) } });
    }
    edits.push({ start: document.bodyEnd, end: document.bodyEnd, part: { kind: "bodyEnd" } });
    edits.sort((a, b) => a.start - b.start);
    let from = 0;
    for (const edit of edits) {
      if (edit.start > from) parts.push({ kind: "markup", markup: template.slice(from, edit.start) });
      parts.push(edit.part);
      from = edit.end;
    }
    parts.push({ kind: "markup", markup: template.slice(from) });

    textEdits.sort((a, b) => a.start - b.start);
    let source = "";
    from = 0;
    for (const edit of textEdits) {
      source += template.slice(from, edit.start) + edit.text;
      from = edit.end;
    }
    const text = plainTextOf(source + template.slice(from));
    const prefixes = new Map<number, string>();
    for (const match of text.matchAll(FIELD_SLOT)) prefixes.set(Number(match[1]), text.slice(text.lastIndexOf("\n", match.index) + 1, match.index));
    return new PreparedDocument(parts, text, prefixes, fixedLinks, links);
  }

  /** One recipient's copy, or null when the whole document must be parsed for it. */
  fill(fields: readonly Field[], links: RecipientLinks, fragments: Fragments): FilledDocument | null {
    let html = "";
    let bodyEnd = 0;
    let hasUnsubscribeLink = this.fixedLinks.has(links.unsubscribeUrl);
    const filledLinks: Array<FilledLink | undefined> = new Array<FilledLink | undefined>(this.linkCount);
    const fieldTexts = new Map<number, string>();
    /** Fields whose text is blocks: they cannot go in a list item's line. */
    const blockFields = new Set<number>();
    for (const part of this.parts) {
      switch (part.kind) {
        case "markup":
          html += part.markup;
          break;
        case "bodyEnd":
          bodyEnd = html.length;
          break;
        case "field": {
          const field = fields[part.index];
          if (field === undefined) return null;
          // Text, or HTML without markup or character references: its characters are its text.
          if (field.kind === "text" || !/[<&]/.test(field.written)) {
            // HTML outside text (an attribute, a comment) must not be able to end where it stands.
            if (field.kind === "html" && !part.inText && /[>"']/.test(field.written)) return null;
            html += field.written;
            fieldTexts.set(part.index, collapse(field.kind === "text" ? field.text : field.written));
            break;
          }
          const fragment = part.inText ? fragments.of(field.written) : null;
          if (fragment === null) return null;
          const edited = fragment.edit(links);
          html += edited.html;
          hasUnsubscribeLink ||= edited.hasUnsubscribeLink;
          let placeable = true;
          const text = fragment.text().replace(LINK_SLOT, (_, index: string) => {
            const link = edited.filled[Number(index)];
            const shown = link && shownUrl(link.final, link.text);
            if (!shown) placeable = false;
            return shown ?? "";
          });
          if (!placeable) return null;
          fieldTexts.set(part.index, text);
          if (fragment.hasBlocks) blockFields.add(part.index);
          break;
        }
        case "url": {
          let placeable = true;
          const value = part.url.value.replace(FIELD_SLOT, (_, index: string) => {
            const field = fields[Number(index)];
            if (field === undefined || (field.kind === "html" && /[<>"'&]/.test(field.written))) placeable = false;
            return field === undefined ? "" : field.kind === "text" ? field.text : field.written;
          });
          const raw = part.raw.replace(FIELD_SLOT, (_, index: string) => fields[Number(index)]?.written ?? "");
          if (!placeable) return null;
          if (isRefusedUrl(part.url.element, part.url.name, value)) {
            html += `${part.url.name}="#"`;
            if (part.link >= 0) filledLinks[part.link] = { final: "#", text: part.url.text };
          } else if (part.link >= 0) {
            const url = value.trim();
            const final = links.track(url);
            html += final === null ? raw : `href="${escapeHtml(final)}"`;
            hasUnsubscribeLink ||= url === links.unsubscribeUrl;
            filledLinks[part.link] = { final: final ?? value, text: part.url.text };
          } else html += raw;
          break;
        }
      }
    }
    const text = this.textOf(fieldTexts, blockFields, filledLinks);
    return text === null ? null : { html, bodyEnd, text, hasUnsubscribeLink };
  }

  private textOf(fieldTexts: ReadonlyMap<number, string>, blockFields: ReadonlySet<number>, filledLinks: ReadonlyArray<FilledLink | undefined>): string | null {
    let placeable = true;
    const fieldText = (index: string): string => {
      const value = fieldTexts.get(Number(index));
      if (value === undefined) placeable = false;
      return value ?? "";
    };
    const text = this.text.replace(TOKENS, (_, field?: string, link?: string) => {
      if (field !== undefined) {
        const value = fieldText(field);
        const prefix = this.prefixes.get(Number(field)) ?? "";
        if (prefix === "") return value;
        if (blockFields.has(Number(field))) placeable = false;
        return value.replaceAll("\n", `\n${" ".repeat(prefix.length)}`);
      }
      const filled = filledLinks[Number(link)];
      const words = filled?.text.replace(FIELD_SLOT, (_, index: string) => fieldText(index)) ?? "";
      // A link whose words its fields emptied shows its URL without brackets.
      if (filled && filled.text !== "" && words.replace(WHITE_SPACE, "") === "") placeable = false;
      const shown = filled && shownUrl(filled.final, words);
      if (!shown) placeable = false;
      return shown ?? "";
    });
    return placeable ? tidyPlainText(text) : null;
  }
}
