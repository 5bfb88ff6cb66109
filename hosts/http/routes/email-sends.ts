import { PagePaginationView } from "../../../core/shared/page-pagination.js";
import * as t from "io-ts";
import { EmailSendIdPath, ListEmailSendsQuery } from "../../../core/email-sends/commands.js";
import { GetEmailSend } from "../../../core/email-sends/get-email-send.js";
import { ListEmailSends } from "../../../core/email-sends/list-email-sends.js";
import { EmailSendEventView, EmailSendSummaryView, EmailSendView } from "../../../core/email-sends/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

/** The email-sends search (compat-reference §14): every message sent, its delivery status and its events. */
export const emailSendsRoutes = routeModule({ listEmailSends: ListEmailSends, getEmailSend: GetEmailSend }, (uses) => [
  defineRoute({
    method: "get",
    path: "/email-sends",
    tag: "Email sends",
    scopes: ["email_sends:read"],
    summary:
      "Search the email sends of the last days (1-14, default 14): search (subject or recipient), subject, recipient, status " +
      "(pending|sent|delivered|opened|clicked|bounced|complained|failed|suppressed; opened includes clicked), emailType, bounceType, " +
      "campaignId, transactionalEmailId, automationId, automationNodeId, held (true: only sends held while the company's sending is paused); " +
      "page (from 1), limit 1-100 (20), sortField recipientEmail|subject|status|eventAt|sentAt|createdAt (default), sortOrder asc|desc (default). " +
      "A held send stays pending with heldAt set, and goes out after the resume (GET /sending-status)",
    query: ListEmailSendsQuery,
    response: view({
      retentionDays: t.number,
      emailSends: t.readonlyArray(EmailSendSummaryView),
      pagination: PagePaginationView,
    }),
    errors: [422],
    handle: async ({ input, actor }) => uses.listEmailSends.execute(actor, input.query),
  }),
  defineRoute({
    method: "get",
    path: "/email-sends/:emailSendId",
    tag: "Email sends",
    scopes: ["email_sends:read"],
    summary:
      "One email send with its stored HTML (emailBody, left out once expired) and its events in time order; heldAt while it is held " +
      "because the company's sending is paused; 404 'Email send not found'",
    params: EmailSendIdPath,
    response: view({ source: t.literal("database"), emailSend: EmailSendView, events: t.readonlyArray(EmailSendEventView) }),
    errors: [404],
    handle: async ({ input, actor }) => uses.getEmailSend.execute(actor, input.params.emailSendId),
  }),
]);
