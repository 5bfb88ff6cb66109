import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { EmailSendIdPath, ListEmailSendsQuery } from "../../../core/email-sends/commands.js";
import { GetEmailSend, type EmailSendDetail } from "../../../core/email-sends/get-email-send.js";
import { ListEmailSends, type EmailSendPage } from "../../../core/email-sends/list-email-sends.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const EmailSendSummaryResource = t.type({
  id: Id,
  status: t.string,
  recipientEmail: t.string,
  subject: t.string,
  subscriberId: NullableString,
  automationNodeId: NullableString,
  abTestVariantId: t.null,
  sentAt: NullableTimestamp,
  deliveredAt: NullableTimestamp,
  openedAt: NullableTimestamp,
  clickedAt: NullableTimestamp,
  createdAt: Timestamp,
  emailType: t.string,
  transactionalEmailId: NullableString,
});

const EmailSendResource = t.intersection([
  t.type({
    id: Id,
    companyId: Id,
    type: t.string,
    emailType: t.string,
    recipientEmail: t.string,
    subject: t.string,
    senderEmail: t.string,
    senderName: NullableString,
    status: t.string,
    suppressionReason: NullableString,
    replyTo: NullableString,
    copiedFrom: t.union([t.type({ emailSendId: Id, role: t.string }), t.null]),
    failureReason: NullableString,
    sentAt: NullableTimestamp,
    deliveredAt: NullableTimestamp,
    suppressedAt: NullableTimestamp,
    createdAt: Timestamp,
  }),
  t.partial({ emailBody: t.string }),
]);

const EmailSendEventResource = t.intersection([
  t.type({ id: Id, emailSendId: Id, eventType: t.string, eventTime: Timestamp, deliveryPolicy: t.null }),
  t.partial({ machine: t.boolean }),
]);

/** The email-sends search (compat-reference §14): every message sent, its delivery status and its events. */
export const emailSendsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/email-sends",
    tag: "Email sends",
    scopes: ["email_sends:read"],
    summary:
      "Search the email sends of the last days (1-14, default 14): search (subject or recipient), subject, recipient, status " +
      "(pending|sent|delivered|opened|clicked|bounced|complained|failed|suppressed; opened includes clicked), emailType, bounceType, " +
      "campaignId, transactionalEmailId, automationId, automationNodeId; page (from 1), limit 1-100 (20), " +
      "sortField recipientEmail|subject|status|eventAt|sentAt|createdAt (default), sortOrder asc|desc (default)",
    query: ListEmailSendsQuery,
    response: t.type({
      retentionDays: t.number,
      emailSends: t.array(EmailSendSummaryResource),
      pagination: t.type({ page: t.number, limit: t.number, total: t.number, totalPages: t.number }),
    }),
    errors: [422],
    handle: async ({ input, actor, container }) => map((page: EmailSendPage) => ({ ...page }))(await container.get(ListEmailSends).execute(actor, input.query)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/email-sends/:emailSendId",
    tag: "Email sends",
    scopes: ["email_sends:read"],
    summary: "One email send with its stored HTML (emailBody, left out once expired) and its events in time order; 404 'Email send not found'",
    params: EmailSendIdPath,
    response: t.type({ source: t.literal("database"), emailSend: EmailSendResource, events: t.array(EmailSendEventResource) }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((detail: EmailSendDetail) => ({ ...detail }))(await container.get(GetEmailSend).execute(actor, input.params.emailSendId)),
  }),
];
