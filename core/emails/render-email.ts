import { FRESH_READS, type Reads } from "../shared/batch-reads.js";
import { notFound } from "../shared/errors.js";
import { fail, type Result } from "../shared/result.js";
import type { EmailBlock } from "./blocks.js";
import type { EmailLinks, EmailRenderer, RenderedEmail } from "./email-renderer.js";
import { keepUnsubscribeEnabled, type EmailContent } from "./model.js";
import type { EmailBrandingSource, EmailComponentRepository } from "./ports.js";

export interface RenderEmailInput {
  readonly content: EmailContent;
  /** Merge-tag values (see contactVariables for a contact's). */
  readonly variables: Readonly<Record<string, unknown>>;
  /** Top-level names the sender passed itself, checked for use (`unusedVariables`). */
  readonly suppliedVariables?: readonly string[] | undefined;
  readonly links: EmailLinks;
  /** A footer to show instead of the company's default (the preview of a default not saved yet). */
  readonly footer?: readonly EmailBlock[] | undefined;
}

/**
 * Renders an email of a company: its theme and name from the company profile, its default
 * footer component (else a footer generated from the profile), then the renderer. Senders
 * (transactional, campaigns, sequences, previews) all come through here.
 */
export class RenderEmail {
  constructor(
    private readonly branding: EmailBrandingSource,
    private readonly components: EmailComponentRepository,
    private readonly renderer: EmailRenderer,
  ) {}

  /** `reads`: a batch of sends shares one read of the theme and footer. */
  execute = async (companyId: string, input: RenderEmailInput, reads: Reads = FRESH_READS): Promise<Result<RenderedEmail>> => {
    const branding = await reads.once(`branding:${companyId}`, () => this.branding.find(companyId));
    if (!branding) return fail(notFound("Company not found"));
    const footer = input.footer ? { blocks: input.footer } : await reads.once(`footer:${companyId}`, () => this.components.findDefault(companyId, "footer"));
    return this.renderer.render({
      theme: branding.theme,
      companyName: branding.companyName,
      subject: input.content.subject,
      previewText: input.content.previewText,
      body: input.content.body,
      footer: footer ? keepUnsubscribeEnabled(footer.blocks).blocks : null,
      variables: input.variables,
      suppliedVariables: input.suppliedVariables,
      links: input.links,
    });
  };
}
