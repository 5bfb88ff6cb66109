import type { EmailTheme } from "../company/email-theme.js";
import type { Result } from "../shared/result.js";
import type { EmailBlock } from "./blocks.js";
import type { EmailBody, EmailContent } from "./model.js";
import { token } from "../shared/token.js";

/** The links every rendered email carries, and how its links are tracked. */
export interface EmailLinks {
  readonly unsubscribeUrl: string;
  readonly viewInBrowserUrl?: string | undefined;
  /** Click tracking: applied to every http(s) link of the final HTML except the unsubscribe link. */
  readonly rewriteLink?: ((url: string) => string) | undefined;
  /** Open tracking: a 1x1 image of this URL is appended to the HTML. */
  readonly openPixelUrl?: string | undefined;
}

export interface RenderEmailRequest {
  readonly theme: EmailTheme;
  /** Shown in the generated footer. */
  readonly companyName: string;
  readonly subject: string;
  readonly previewText: string | null;
  readonly body: EmailBody;
  /** The footer's blocks; null: a footer generated from the company profile (name and unsubscribe link). */
  readonly footer: readonly EmailBlock[] | null;
  /** Merge-tag values: subscriber fields, event data, account data, the caller's own variables. */
  readonly variables: Readonly<Record<string, unknown>>;
  /** Top-level names the caller passed explicitly; those the content never uses come back in `unusedVariables`. */
  readonly suppliedVariables?: readonly string[] | undefined;
  readonly links: EmailLinks;
}

/** Where a merge tag appears. */
export interface MergeTagUse {
  readonly surface: "subject" | "previewText" | "body" | "block" | "footer";
  readonly blockId?: string;
  readonly blockType?: string;
  readonly field?: string;
}

/** A merge tag without a value: `unknown` (no such variable) or `no_value` (null or empty). */
export interface UnresolvedMergeTag {
  /** Dotted path as written (`subscriber.firstName`). */
  readonly name: string;
  readonly reason: "unknown" | "no_value";
  readonly usedIn: readonly MergeTagUse[];
}

export interface RenderedEmail {
  readonly subject: string;
  readonly previewText: string | null;
  readonly html: string;
  readonly text: string;
  /** Names of the merge tags that rendered empty (they do not stop a send; callers report them). */
  readonly missingVariables: readonly string[];
  readonly unresolvedMergeTags: readonly UnresolvedMergeTag[];
  readonly unusedVariables: readonly string[];
}

/**
 * Turns content, theme and variables into the message's subject, HTML and text parts. Merge
 * tags that break the template syntax or the rendering limits fail with a 400 DomainError.
 */
export interface EmailRenderer {
  render(request: RenderEmailRequest): Promise<Result<RenderedEmail>>;
  /** The variables the content's merge tags read (top-level names, sorted), the service's own links left out. */
  variablesOf(content: EmailContent): string[];
}
export const EmailRenderer = token<EmailRenderer>("lifecycle.EmailRenderer");
