import * as t from "io-ts";
import { isBlocksBody, type Template } from "../emails/model.js";
import { EmailBlocksView } from "../emails/view.js";
import { StatsView } from "../metrics/view.js";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import type { TransactionalEmail } from "./model.js";

const transactionalEmail = {
  id: Id,
  slug: t.string,
  name: t.string,
  emailId: Id,
  enabled: t.boolean,
  subject: t.string,
  previewText: NullableString,
  html: NullableString,
  blocks: t.union([EmailBlocksView, t.null]),
  /** The product's presets are not offered here: always null. */
  emailPreset: t.null,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** The saved transactional email of the API (spec fields, compat-reference §13). */
export const TransactionalEmailView = view(transactionalEmail, "TransactionalEmail");
export type TransactionalEmailView = t.TypeOf<typeof TransactionalEmailView>;

/** GET /transactional/{idOrSlug}: the saved email with the variables its merge tags read. */
export const TransactionalEmailDetail = view({ ...transactionalEmail, variables: t.readonlyArray(t.string) }, "TransactionalEmailDetail");
export type TransactionalEmailDetail = t.TypeOf<typeof TransactionalEmailDetail>;

/** A list item: the saved email with the all-time numbers of its sends. */
export const TransactionalEmailListItem = view({ ...transactionalEmail, stats: StatsView }, "TransactionalEmailListItem");
export type TransactionalEmailListItem = t.TypeOf<typeof TransactionalEmailListItem>;

/** The saved email a send used, or a deleted one's identity. */
const TransactionalIdentity = view({ id: Id, name: t.string, slug: t.string });

const MergeTagUse = viewWithOptional({ surface: t.string }, { blockId: t.string, blockType: t.string, field: t.string }, "MergeTagUse");

/** Warnings about merge tags: variables the content reads and nobody gave, variables given and never read. */
const SendDiagnostics = view(
  {
    status: t.literal("warning"),
    message: t.string,
    missingRequiredVariables: t.readonlyArray(
      view({ name: t.string, lookupName: t.string, message: t.string, suggestions: t.readonlyArray(t.string), usedIn: t.readonlyArray(MergeTagUse) }),
    ),
    unusedVariables: t.readonlyArray(view({ name: t.string, message: t.string, suggestions: t.readonlyArray(t.string) })),
  },
  "SendDiagnostics",
);

const Addresses = t.readonlyArray(t.string);

/** POST /transactional/send: one email send per recipient; the first one's ID is also the legacy `jobId`. */
export const SentTransactionalView = viewWithOptional(
  {
    emailSendId: Id,
    jobId: Id,
    to: Addresses,
    emailType: oneOf(["transactional", "marketing"], "TransactionalEmailType"),
    emailSends: t.readonlyArray(view({ emailSendId: Id, to: t.string, role: oneOf(["to", "cc", "bcc"], "RecipientRole"), locale: t.string })),
  },
  { cc: Addresses, bcc: Addresses, transactional: TransactionalIdentity, diagnostics: SendDiagnostics },
  "SentTransactional",
);
export type SentTransactionalView = t.TypeOf<typeof SentTransactionalView>;

/** DELETE /transactional/{idOrSlug}. */
export const DeletedTransactionalView = view(
  { message: t.string, deleted: view({ id: Id, slug: t.string, name: t.string, emailId: Id }) },
  "DeletedTransactional",
);

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
