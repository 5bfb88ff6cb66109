import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { EmailBlockCodec } from "../../../core/emails/blocks.js";
import { CreateTransactionalCommand, ListTransactionalQuery, TransactionalPath, UpdateTransactionalCommand } from "../../../core/transactional/commands.js";
import { CreateTransactionalEmail } from "../../../core/transactional/create-transactional-email.js";
import { DeleteTransactionalEmail } from "../../../core/transactional/delete-transactional-email.js";
import { GetTransactionalEmail } from "../../../core/transactional/get-transactional-email.js";
import { ListTransactionalEmails } from "../../../core/transactional/list-transactional-emails.js";
import { SendTransactionalCommand, recipientsOf } from "../../../core/transactional/send-command.js";
import { SendTransactional } from "../../../core/transactional/send-transactional.js";
import { UpdateTransactionalEmail } from "../../../core/transactional/update-transactional-email.js";
import { withSchema } from "../../../core/shared/json-schema.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { StatsView as Stats } from "../../../core/metrics/view.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

const TransactionalResource = t.type({
  id: Id,
  slug: t.string,
  name: t.string,
  emailId: Id,
  enabled: t.boolean,
  subject: t.string,
  previewText: NullableString,
  html: NullableString,
  blocks: t.union([t.array(EmailBlockCodec), t.null]),
  emailPreset: t.null,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Warnings about merge tags: status, message, missingRequiredVariables[], unusedVariables[]. */
const Diagnostics = withSchema(t.UnknownRecord, { type: "object", required: ["status", "message", "missingRequiredVariables", "unusedVariables"] });

const Identity = t.type({ id: Id, name: t.string, slug: t.string });

/** Same key and same content replay the original answer for 14 days (compat-reference §13). */
const IDEMPOTENCY_TTL_MS = 14 * 24 * 60 * 60 * 1000;

const recipientCount = (body: unknown): number => {
  const decoded = SendTransactionalCommand.decode(body);
  return decoded._tag === "Right" ? Math.max(1, recipientsOf(decoded.right).length) : 1;
};

/** Saved transactional emails and the send (compat-reference §13, spec Transactional emails). */
export const transactionalRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/transactional/send",
    tag: "Transactional",
    scopes: ["transactional:send"],
    summary:
      "Send an email to each recipient: `to` (one address or up to 50), optional cc/bcc (duplicates removed in the order to > cc > bcc), each address its own email send and one unit of the transactional budget. Content: `slug` (alias `templateId`) of an enabled saved email (409 when disabled), or direct `subject` + `body` (alias `html`) with `preview`. `variables` fill merge tags over the contact's own fields; `from` ('Name <email>') is used when on a verified domain, else the default sender (409 when the company has none); `emailType` marketing takes one `to` and no cc/bcc; attachments (<= 10) as base64 `content`; `trackingSettings` turn off open or click tracking for this send. Idempotency-Key: the same key and body replay the first answer for 14 days (409 for a different body).",
    body: SendTransactionalCommand,
    bodyLimit: "16mb",
    rateLimit: { budget: "transactional", units: (req) => recipientCount(req.body) },
    idempotency: { ttlMs: IDEMPOTENCY_TTL_MS },
    response: t.intersection([
      t.type({
        emailSendId: Id,
        jobId: Id,
        to: t.array(t.string),
        emailType: t.keyof({ transactional: null, marketing: null }),
        emailSends: t.array(t.type({ emailSendId: Id, to: t.string, role: t.keyof({ to: null, cc: null, bcc: null }) })),
      }),
      t.partial({ cc: t.array(t.string), bcc: t.array(t.string), transactional: Identity, diagnostics: Diagnostics }),
    ]),
    errors: [400, 404, 409, 422, 429],
    handle: async ({ input, actor, container }) => container.get(SendTransactional).execute(actor, input.body),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/transactional",
    tag: "Transactional",
    scopes: ["transactional:read"],
    summary:
      "Saved transactional emails with the all-time stats of their sends; `search` in name or slug, `status` all|active|disabled, `sort` date (default), sends, opens, open-rate, clicks or ctr, `order` desc (default) or asc; `includeMachineEngagement` as for metrics",
    query: ListTransactionalQuery,
    response: t.type({ transactional: t.array(t.intersection([TransactionalResource, t.type({ stats: Stats })])) }),
    errors: [422],
    handle: async ({ input, actor, container }) => map((transactional) => ({ transactional }))(await container.get(ListTransactionalEmails).execute(actor, input.query)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/transactional",
    tag: "Transactional",
    scopes: ["transactional:write"],
    summary:
      "Save a transactional email: name, subject, exactly one of html and blocks; `slug` defaults to one made from the name (unique among live transactional emails: 409; reusable after deletion); `enabled` defaults to true",
    body: CreateTransactionalCommand,
    response: t.type({ transactional: TransactionalResource }),
    errors: [400, 409, 422],
    handle: async ({ input, actor, container }) => map((transactional) => ({ transactional }))(await container.get(CreateTransactionalEmail).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/transactional/:idOrSlug",
    tag: "Transactional",
    scopes: ["transactional:read"],
    summary: "One saved transactional email by ID or slug, with its content; 404 'Transactional email not found'",
    params: TransactionalPath,
    response: t.type({ transactional: TransactionalResource }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((transactional) => ({ transactional }))(await container.get(GetTransactionalEmail).execute(actor, input.params.idOrSlug)),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/transactional/:idOrSlug",
    tag: "Transactional",
    scopes: ["transactional:write"],
    summary: "Change name, enabled (false stops sends), subject, previewText, html or blocks; at least one (400)",
    params: TransactionalPath,
    body: UpdateTransactionalCommand,
    response: t.type({ transactional: TransactionalResource }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((transactional) => ({ transactional }))(await container.get(UpdateTransactionalEmail).execute(actor, input.params.idOrSlug, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/transactional/:idOrSlug",
    tag: "Transactional",
    scopes: ["transactional:delete"],
    summary:
      "Delete a saved transactional email (its slug is free again). Past deliveries, stats and stored HTML remain in the email-sends search; the content stays as a reusable template (DELETE /templates/{templateId} removes it).",
    params: TransactionalPath,
    response: t.type({ message: t.string, deleted: t.type({ id: Id, slug: t.string, name: t.string, emailId: Id }) }),
    errors: [404],
    handle: async ({ input, actor, container }) =>
      map((deleted) => ({ message: "Transactional email deleted", deleted }))(await container.get(DeleteTransactionalEmail).execute(actor, input.params.idOrSlug)),
  }),
];
