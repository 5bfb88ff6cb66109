import type { EmailBlock } from "../../core/emails/blocks.js";
import type { EmailRenderer, MergeTagUse, RenderedEmail, RenderEmailRequest } from "../../core/emails/email-renderer.js";
import { GENERATED_FOOTER, isBlocksBody, type EmailContent } from "../../core/emails/model.js";
import { badRequest } from "../../core/shared/errors.js";
import { fail, ok, type Result } from "../../core/shared/result.js";
import { HtmlDocument, insertAt } from "./html-document.js";
import { FieldSlots } from "./field-slots.js";
import { Fragments, PreparedDocument, type FilledDocument } from "./prepared-document.js";
import { escapeHtml, oneLine, safeUrl } from "./html-text.js";
import {
  DEFAULT_MERGE_TAG_LIMITS,
  MergeTagSession,
  mergeTagEngines,
  mergeVariablesOf,
  RenderFailure,
  type MergeTagEngines,
  type MergeTagLimits,
} from "./merge-tags.js";
import { emailDocument, footerDocument, type DocumentContext } from "./mjml-document.js";
import { toPlainText } from "./plain-text.js";

export interface RenderLimits extends MergeTagLimits {
  /** Characters of the finished HTML. */
  readonly maxHtmlLength: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = { ...DEFAULT_MERGE_TAG_LIMITS, maxHtmlLength: 5_000_000 };

type Surface = "block" | "footer";

/** Fills a block's merge tags: HTML fields escaped, text fields as text, URLs made safe. */
async function fillBlock(block: EmailBlock, tags: MergeTagSession, surface: Surface): Promise<EmailBlock> {
  const use = (field: string): MergeTagUse => ({ surface, ...(block.id ? { blockId: block.id } : {}), blockType: block.type, field });
  switch (block.type) {
    case "heading":
    case "text":
    case "html":
      return { ...block, content: await tags.html(block.content, use("content")) };
    case "list": {
      const items = [];
      for (const [index, item] of block.items.entries()) items.push({ content: await tags.html(item.content, use(`items.${index}.content`)) });
      return { ...block, items };
    }
    case "button":
      return { ...block, text: await tags.plain(block.text, use("text")), url: safeUrl(await tags.plain(block.url, use("url"))) };
    case "image":
      return {
        ...block,
        src: safeUrl(await tags.plain(block.src, use("src"))),
        ...(block.alt !== undefined ? { alt: await tags.plain(block.alt, use("alt")) } : {}),
        ...(block.href !== undefined ? { href: safeUrl(await tags.plain(block.href, use("href"))) } : {}),
      };
    case "footer":
      return block.content === undefined ? block : { ...block, content: await tags.html(block.content, use("content")) };
    case "columns": {
      const columns = [];
      for (const column of block.columns) columns.push({ blocks: (await fillBlocks(column.blocks, tags, surface)) as typeof column.blocks });
      return { ...block, columns };
    }
    case "divider":
    case "spacer":
      return block;
  }
}

async function fillBlocks(blocks: readonly EmailBlock[], tags: MergeTagSession, surface: Surface): Promise<EmailBlock[]> {
  const filled: EmailBlock[] = [];
  for (const block of blocks) filled.push(await fillBlock(block, tags, surface));
  return filled;
}

const hiddenPreview = (text: string): string =>
  `<div style="display:none;font-size:1px;line-height:1px;max-height:0px;max-width:0px;opacity:0;overflow:hidden;">${escapeHtml(text)}</div>`;

const openPixel = (url: string): string =>
  `<img src="${escapeHtml(url)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;

const unsubscribeLine = (context: DocumentContext): string => {
  const muted = context.theme.colors.mutedText;
  return `<p style="margin:16px 0;text-align:center;font-family:Arial,sans-serif;font-size:12px;color:${muted}"><a href="${escapeHtml(context.unsubscribeUrl)}" style="color:${muted};text-decoration:underline">Unsubscribe</a></p>`;
};

/**
 * The EmailRenderer of MJML 5 (responsive HTML from blocks), LiquidJS (merge tags) and
 * html-to-text (the plain part). Every email ends with its footer and an unsubscribe link,
 * raw-HTML bodies included; click tracking rewrites every http(s) link but the unsubscribe one.
 */
/** Stand-ins for a recipient's links in a cached footer: plain tokens MJML passes through untouched. */
const UNSUBSCRIBE_SLOT = "lifecycle-unsubscribe-url-7f3a9c";
const VIEW_IN_BROWSER_SLOT = "lifecycle-view-in-browser-url-7f3a9c";
const MAX_CACHED_FOOTERS = 200;
const MAX_CACHED_DOCUMENTS = 50;

/** The document context with the recipient's links as stand-ins. */
const withLinkSlots = (context: DocumentContext): DocumentContext => ({
  ...context,
  unsubscribeUrl: UNSUBSCRIBE_SLOT,
  viewInBrowserUrl: context.viewInBrowserUrl ? VIEW_IN_BROWSER_SLOT : undefined,
});

/** The stand-ins replaced by the recipient's links, escaped as the document writes them. */
const fillLinkSlots = (text: string, context: DocumentContext, escape: (value: string) => string): string =>
  text.replaceAll(UNSUBSCRIBE_SLOT, escape(context.unsubscribeUrl)).replaceAll(VIEW_IN_BROWSER_SLOT, escape(context.viewInBrowserUrl ?? ""));
const TRACKABLE = /^https?:\/\//i;

/** A compiled footer with its links' stand-ins, parsed and turned into text once. */
interface CompiledFooter {
  readonly document: HtmlDocument;
  readonly hasUnsubscribeLink: boolean;
  /** The text part of the footer, its links' URLs as LINK_SLOT tokens (in document order). */
  readonly text: string;
}

/** A recipient's footer: its HTML and the text part's lines for it. */
interface RecipientFooter {
  readonly html: string;
  readonly text: string;
}

/** Merge variables the service fills itself. */
const SERVICE_VARIABLES = new Set(["unsubscribeUrl", "viewInBrowserUrl"]);

/** Every string in a block tree (the fields merge tags may be in). */
const stringsOf = (value: unknown): string[] =>
  typeof value === "string"
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === "object"
        ? Object.values(value).flatMap(stringsOf)
        : [];

const linkSlot = (index: number): string => `lifecycle-link-${index}-7f3a9c`;
const LINK_SLOTS = /lifecycle-link-(\d+)-7f3a9c/g;

type Mjml2Html = typeof import("mjml");
let mjml: Promise<Mjml2Html> | undefined;
/** MJML and its CSS inliner are some 600 modules, loaded once: by preloadMjml where a host serves, else at the first render. */
const loadMjml = (): Promise<Mjml2Html> => (mjml ??= import("mjml").then((module) => module.default));

/**
 * Loading MJML holds the event loop for a few hundred ms: a server that loaded it at its first
 * render shed the requests that came with it (503), so hosts that serve load it before they are
 * ready, and short commands (migrate, admin) that never render skip it.
 */
export const preloadMjml = async (): Promise<void> => {
  await loadMjml();
};

/** An email's compiled HTML, its fields as stand-ins, prepared for recipients when first needed. */
class CompiledDocument {
  private readonly preparations: [PreparedDocument | undefined, PreparedDocument | undefined] = [undefined, undefined];

  constructor(readonly html: string) {}

  prepared(tracking: boolean): PreparedDocument {
    const at = tracking ? 1 : 0;
    return (this.preparations[at] ??= PreparedDocument.prepare(this.html, tracking));
  }
}

export class MjmlEmailRenderer implements EmailRenderer {
  private readonly engines: MergeTagEngines;
  /** Compiled footers by MJML source (one per company footer and theme, in practice). */
  private readonly footers = new Map<string, CompiledFooter>();
  /** Compiled emails by MJML source, their fields as stand-ins; prepared for recipients without and with click tracking. */
  private readonly documents = new Map<string, CompiledDocument>();
  private readonly fragments = new Fragments();

  /** `wholeCopies`: parse every recipient's whole copy instead of filling a prepared one (the reference the prepared way is tested against). */
  constructor(
    private readonly limits: RenderLimits = DEFAULT_RENDER_LIMITS,
    private readonly options: { readonly wholeCopies?: boolean } = {},
  ) {
    this.engines = mergeTagEngines(limits);
  }

  async render(request: RenderEmailRequest): Promise<Result<RenderedEmail>> {
    try {
      return ok(await this.renderEmail(request));
    } catch (error) {
      if (error instanceof RenderFailure) return fail(error.error);
      throw error;
    }
  }

  variablesOf(content: EmailContent): string[] {
    const sources = [content.subject, content.previewText ?? "", ...(isBlocksBody(content.body) ? stringsOf(content.body.blocks) : [content.body.html])];
    return mergeVariablesOf(this.engines.plain, sources).filter((name) => !SERVICE_VARIABLES.has(name));
  }

  private async renderEmail(request: RenderEmailRequest): Promise<RenderedEmail> {
    const { links } = request;
    const scope = {
      ...request.variables,
      // The links are the service's, whatever the variables say.
      unsubscribeUrl: links.unsubscribeUrl,
      ...(links.viewInBrowserUrl ? { viewInBrowserUrl: links.viewInBrowserUrl } : {}),
    };
    const tags = new MergeTagSession(this.engines, scope, this.limits);
    const subject = oneLine(await tags.plain(request.subject, { surface: "subject" }));
    const previewText = request.previewText === null ? null : oneLine(await tags.plain(request.previewText, { surface: "previewText" })) || null;
    const context: DocumentContext = {
      theme: request.theme,
      companyName: request.companyName,
      unsubscribeUrl: links.unsubscribeUrl,
      viewInBrowserUrl: links.viewInBrowserUrl,
    };
    const footerBlocks = request.footer ?? GENERATED_FOOTER;

    // Click tracking: every http(s) link but the unsubscribe one goes through the tracker.
    const track = (url: string): string | null => (links.rewriteLink && TRACKABLE.test(url) && url !== links.unsubscribeUrl ? links.rewriteLink(url) : null);

    let document: HtmlDocument;
    let footer: RecipientFooter | null = null;
    let hasUnsubscribeLink: boolean;
    if (isBlocksBody(request.body)) {
      const body = await fillBlocks(request.body.blocks, tags, "block");
      // A body with a footer block of its own keeps it instead of the default one.
      const ownFooter = request.body.blocks.some((block) => block.type === "footer");
      const defaultFooter = ownFooter ? [] : await fillBlocks(footerBlocks, tags, "footer");
      // The recipient's links and merge-filled fields go in after MJML, so every recipient of an email shares one compile.
      const slots = new FieldSlots();
      const source = emailDocument(
        {
          subject: slots.text(subject),
          previewText: previewText === null ? null : slots.text(previewText),
          body: slots.blocks(body),
          footer: slots.blocks(defaultFooter),
        },
        { ...context, unsubscribeUrl: slots.text(links.unsubscribeUrl), viewInBrowserUrl: links.viewInBrowserUrl && slots.text(links.viewInBrowserUrl) },
      );
      const compiled = await this.compileOnce(source);
      // Most recipients: their values filled in at the places found once; the rest parse their whole copy.
      const filled = this.options.wholeCopies
        ? null
        : compiled.prepared(links.rewriteLink !== undefined).fill(slots.fields, { track, unsubscribeUrl: links.unsubscribeUrl }, this.fragments);
      if (filled) return this.finish(tags, request, subject, previewText, filled, null, context);
      document = HtmlDocument.parse(slots.fill(compiled.html));
      hasUnsubscribeLink = document.hasLinkTo(links.unsubscribeUrl);
    } else {
      document = HtmlDocument.parse(await tags.html(request.body.html, { surface: "body" }));
      const compiled = await this.footer(await fillBlocks(footerBlocks, tags, "footer"), context);
      footer = this.footerFor(compiled, context, track);
      hasUnsubscribeLink = compiled.hasUnsubscribeLink || document.hasLinkTo(links.unsubscribeUrl);
    }
    const preview = previewText && !isBlocksBody(request.body) ? hiddenPreview(previewText) : undefined;
    const edited = document.edit({ atBodyStart: preview, rewriteLink: track });
    const body = { html: edited.html, bodyEnd: edited.bodyEnd, text: toPlainText(edited.html), hasUnsubscribeLink };
    return this.finish(tags, request, subject, previewText, body, footer, context);
  }

  /** The email from its edited document: then the footer of an HTML body, the unsubscribe line if no link is one, the open pixel. */
  private finish(
    tags: MergeTagSession,
    request: RenderEmailRequest,
    subject: string,
    previewText: string | null,
    body: FilledDocument,
    footer: RecipientFooter | null,
    context: DocumentContext,
  ): RenderedEmail {
    const { links } = request;
    const unsubscribe = body.hasUnsubscribeLink ? "" : unsubscribeLine(context);
    // The footer's text part was made when it was compiled: only the body's is converted here.
    const text = [body.text, footer?.text ?? "", unsubscribe ? toPlainText(unsubscribe) : ""].filter(Boolean).join("\n\n");
    const ending = (footer?.html ?? "") + unsubscribe + (links.openPixelUrl ? openPixel(links.openPixelUrl) : "");
    const html = insertAt(body.html, body.bodyEnd, ending);
    if (html.length > this.limits.maxHtmlLength) {
      throw new RenderFailure(
        badRequest(`The email cannot be rendered: its HTML exceeds ${this.limits.maxHtmlLength} characters`, { code: "RENDER_LIMIT_EXCEEDED" }),
      );
    }
    return { subject, previewText, html, text, ...tags.report(request.suppliedVariables) };
  }

  /**
   * The footer of an HTML body, compiled once per footer and theme: MJML costs more than the
   * rest of a render, and only the links differ between recipients, so they are compiled as
   * placeholders and filled in per recipient.
   */
  private async footer(blocks: Awaited<ReturnType<typeof fillBlocks>>, context: DocumentContext): Promise<CompiledFooter> {
    const source = footerDocument(blocks, withLinkSlots(context));
    let compiled = this.footers.get(source);
    if (compiled === undefined) {
      const document = HtmlDocument.parse(HtmlDocument.parse(await this.compile(source)).bodyContent());
      let link = 0;
      const text = toPlainText(document.edit({ rewriteLink: () => linkSlot(link++) }).html);
      compiled = { document, hasUnsubscribeLink: document.hasLinkTo(UNSUBSCRIBE_SLOT), text };
      if (this.footers.size >= MAX_CACHED_FOOTERS) this.footers.clear();
      this.footers.set(source, compiled);
    }
    return compiled;
  }

  /** A recipient's footer: the placeholders replaced by their links, tracked where `track` says. */
  private footerFor(compiled: CompiledFooter, context: DocumentContext, track: (url: string) => string | null): RecipientFooter {
    const fill = (text: string, escape: (value: string) => string): string => fillLinkSlots(text, context, escape);
    const urls: string[] = [];
    const { html } = compiled.document.edit({
      rewriteLink: (url) => {
        const filled = fill(url, (value) => value);
        const final = track(filled) ?? filled;
        urls.push(final);
        return final === url ? null : final;
      },
    });
    // Placeholders outside links (a URL shown as text) are filled as text.
    const text = fill(
      compiled.text.replace(LINK_SLOTS, (_, index: string) => urls[Number(index)] ?? ""),
      (value) => value,
    );
    return { html: fill(html, escapeHtml), text };
  }

  /** MJML of a whole email, compiled once per source (its fields and links as stand-ins: one source per email and theme, in practice). */
  private async compileOnce(source: string): Promise<CompiledDocument> {
    let compiled = this.documents.get(source);
    if (compiled === undefined) {
      compiled = new CompiledDocument(await this.compile(source));
      if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.clear();
      this.documents.set(source, compiled);
    }
    return compiled;
  }

  private async compile(source: string): Promise<string> {
    const mjml2html = await loadMjml();
    const result = await mjml2html(source, { validationLevel: "skip", keepComments: false, fonts: {}, ignoreIncludes: true });
    return result.html;
  }
}
