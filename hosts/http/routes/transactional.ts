import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateTransactionalCommand, ListTransactionalQuery, TransactionalPath, UpdateTransactionalCommand } from "../../../core/transactional/commands.js";
import { CreateTransactionalEmail } from "../../../core/transactional/create-transactional-email.js";
import { DeleteTransactionalEmail, type DeletedTransactionalEmail } from "../../../core/transactional/delete-transactional-email.js";
import { GetTransactionalEmail } from "../../../core/transactional/get-transactional-email.js";
import { ListTransactionalEmails } from "../../../core/transactional/list-transactional-emails.js";
import { SendTransactionalCommand, recipientsOf } from "../../../core/transactional/send-command.js";
import { SendTransactional } from "../../../core/transactional/send-transactional.js";
import { UpdateTransactionalEmail } from "../../../core/transactional/update-transactional-email.js";
import {
  DeletedTransactionalView,
  SentTransactionalView,
  TransactionalEmailDetail,
  TransactionalEmailListItem,
  TransactionalEmailView,
} from "../../../core/transactional/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** Same key and same content replay the original answer for 14 days (compat-reference §13). */
const IDEMPOTENCY_TTL_MS = 14 * 24 * 60 * 60 * 1000;

const recipientCount = (body: unknown): number => {
  const decoded = SendTransactionalCommand.decode(body);
  return decoded._tag === "Right" ? Math.max(1, recipientsOf(decoded.right).length) : 1;
};

/** Saved transactional emails and the send (compat-reference §13, spec Transactional emails). */
export const transactionalRoutes = routeModule(
  {
    sendTransactional: SendTransactional,
    listTransactionalEmails: ListTransactionalEmails,
    createTransactionalEmail: CreateTransactionalEmail,
    getTransactionalEmail: GetTransactionalEmail,
    updateTransactionalEmail: UpdateTransactionalEmail,
    deleteTransactionalEmail: DeleteTransactionalEmail,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/transactional/send",
      tag: "Transactional",
      scopes: ["transactional:send"],
      summary:
        "Send an email to each recipient: `to` (one address or up to 50), optional cc/bcc (duplicates removed in the order to > cc > bcc), each address its own email send and one unit of the transactional budget. Content: `slug` (alias `templateId`) of an enabled saved email (409 when disabled), or direct `subject` + `body` (alias `html`) with `preview`. `variables` fill merge tags over the contact's own fields; `from` ('Name <email>') is used when on a verified domain, else the default sender (409 when the company has none); `emailType` marketing takes one `to` and no cc/bcc; attachments (<= 10) as base64 `content`; `trackingSettings` turn off open or click tracking for this send; a saved email goes out in `locale` (else the contact's `locale` attribute): that locale's variant, else its language's, else the default content (`locale: \"default\"` forces it), and each `emailSends[].locale` says which. Idempotency-Key: the same key and body replay the first answer for 14 days (409 for a different body).",
      body: SendTransactionalCommand,
      bodyLimit: "16mb",
      rateLimit: { budget: "transactional", units: (req) => recipientCount(req.body) },
      idempotency: { ttlMs: IDEMPOTENCY_TTL_MS },
      response: SentTransactionalView,
      errors: [400, 404, 409, 422, 429],
      handle: async ({ input, actor }) => uses.sendTransactional.execute(actor, input.body),
    }),
    defineRoute({
      method: "get",
      path: "/transactional",
      tag: "Transactional",
      scopes: ["transactional:read"],
      summary:
        "Saved transactional emails with the all-time stats of their sends; `search` in name or slug, `status` all|active|disabled, `sort` date (default), sends, opens, open-rate, clicks or ctr, `order` desc (default) or asc; `includeMachineEngagement` as for metrics",
      query: ListTransactionalQuery,
      response: view({ transactional: t.readonlyArray(TransactionalEmailListItem) }),
      errors: [422],
      handle: async ({ input, actor }) => under("transactional")(await uses.listTransactionalEmails.execute(actor, input.query)),
    }),
    defineRoute({
      method: "post",
      path: "/transactional",
      tag: "Transactional",
      scopes: ["transactional:write"],
      summary:
        "Save a transactional email: name, subject, exactly one of html and blocks; `slug` defaults to one made from the name (unique among live transactional emails: 409; reusable after deletion); `enabled` defaults to true",
      body: CreateTransactionalCommand,
      response: view({ transactional: TransactionalEmailView }),
      errors: [400, 409, 422],
      handle: async ({ input, actor }) => under("transactional")(await uses.createTransactionalEmail.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/transactional/:idOrSlug",
      tag: "Transactional",
      scopes: ["transactional:read"],
      summary: "One saved transactional email by ID or slug, with its content; 404 'Transactional email not found'",
      params: TransactionalPath,
      response: view({ transactional: TransactionalEmailDetail }),
      errors: [404],
      handle: async ({ input, actor }) => under("transactional")(await uses.getTransactionalEmail.execute(actor, input.params.idOrSlug)),
    }),
    defineRoute({
      method: "patch",
      path: "/transactional/:idOrSlug",
      tag: "Transactional",
      scopes: ["transactional:write"],
      summary: "Change name, enabled (false stops sends), subject, previewText, html or blocks; at least one (400)",
      params: TransactionalPath,
      body: UpdateTransactionalCommand,
      response: view({ transactional: TransactionalEmailView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("transactional")(await uses.updateTransactionalEmail.execute(actor, input.params.idOrSlug, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/transactional/:idOrSlug",
      tag: "Transactional",
      scopes: ["transactional:delete"],
      summary:
        "Delete a saved transactional email (its slug is free again). Past deliveries, stats and stored HTML remain in the email-sends search; the content stays as a reusable template (DELETE /templates/{templateId} removes it).",
      params: TransactionalPath,
      response: DeletedTransactionalView,
      errors: [404],
      handle: async ({ input, actor }) =>
        map((deleted: DeletedTransactionalEmail) => ({ message: "Transactional email deleted", deleted }))(
          await uses.deleteTransactionalEmail.execute(actor, input.params.idOrSlug),
        ),
    }),
  ],
);
