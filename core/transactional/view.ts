import type { EmailBlock } from "../emails/blocks.js";
import { isBlocksBody, type Template } from "../emails/model.js";
import type { Stats } from "../metrics/model.js";
import type { TransactionalEmail } from "./model.js";

/** The saved transactional email of the API (spec fields, compat-reference §13). */
export interface TransactionalEmailView {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly emailId: string;
  readonly enabled: boolean;
  readonly subject: string;
  readonly previewText: string | null;
  readonly html: string | null;
  readonly blocks: readonly EmailBlock[] | null;
  /** The product's presets are not offered here: always null. */
  readonly emailPreset: null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** GET /transactional/{idOrSlug}: the saved email with the variables its merge tags read. */
export type TransactionalEmailDetail = TransactionalEmailView & { readonly variables: string[] };

/** A list item: the saved email with the all-time numbers of its sends. */
export type TransactionalEmailListItem = TransactionalEmailView & { readonly stats: Stats };

export const toTransactionalEmailView = (email: TransactionalEmail, content: Template): TransactionalEmailView => ({
  id: email.id,
  slug: email.slug,
  name: email.name,
  emailId: email.templateId,
  enabled: email.enabled,
  subject: content.subject,
  previewText: content.previewText,
  html: isBlocksBody(content.body) ? null : content.body.html,
  blocks: isBlocksBody(content.body) ? content.body.blocks : null,
  emailPreset: null,
  createdAt: email.createdAt.toISOString(),
  updatedAt: email.updatedAt.toISOString(),
});
