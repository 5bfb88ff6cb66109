import { pageFields } from "../shared/page-pagination.js";
import * as t from "io-ts";
import { EMAIL_TYPES, type EmailType } from "../delivery/model.js";
import { BooleanFromString, integerBetween, oneOf, optional } from "../shared/codecs.js";
import { EMAIL_SEND_SORT_FIELDS, SEARCHABLE_BOUNCE_TYPES, type EmailSendSortField, type SearchableBounceType } from "./email-send-queries.js";
import { EMAIL_SEND_STATUSES, type EmailSendStatus } from "./status.js";

/** How far back the search reaches: sends stay searchable for 14 days. */
export const EMAIL_SEND_RETENTION_DAYS = 14;
export const DEFAULT_EMAIL_SEND_PAGE_SIZE = 20;

/** GET /email-sends. */
export const ListEmailSendsQuery = t.exact(
  t.partial({
    search: optional(t.string),
    subject: optional(t.string),
    recipient: optional(t.string),
    status: optional(oneOf<EmailSendStatus>(EMAIL_SEND_STATUSES, "EmailSendStatus")),
    emailType: optional(oneOf<EmailType>(EMAIL_TYPES, "EmailType")),
    bounceType: optional(oneOf<SearchableBounceType>(SEARCHABLE_BOUNCE_TYPES, "BounceType")),
    campaignId: optional(t.string),
    transactionalEmailId: optional(t.string),
    automationId: optional(t.string),
    automationNodeId: optional(t.string),
    held: optional(BooleanFromString),
    days: optional(integerBetween(1, EMAIL_SEND_RETENTION_DAYS)),
    ...pageFields(100),
    sortField: optional(oneOf<EmailSendSortField>(EMAIL_SEND_SORT_FIELDS, "EmailSendSortField")),
    sortOrder: optional(oneOf(["asc", "desc"], "SortOrder")),
  }),
  "ListEmailSendsQuery",
);
export type ListEmailSendsQuery = t.TypeOf<typeof ListEmailSendsQuery>;

/** `/email-sends/{emailSendId}`. */
export const EmailSendIdPath = t.type({ emailSendId: t.string }, "EmailSendIdPath");
export type EmailSendIdPath = t.TypeOf<typeof EmailSendIdPath>;
