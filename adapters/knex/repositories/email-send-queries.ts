import * as t from "io-ts";
import type { Knex } from "knex";
import { EMAIL_TYPES, SEND_KINDS, SEND_STATUSES, type EmailType, type SendKind, type SendStatus } from "../../../core/delivery/model.js";
import type {
  EmailSendCriteria,
  EmailSendEventRecord,
  EmailSendQueries,
  EmailSendRecord,
  EmailSendSortField,
  EmailSendSummary,
} from "../../../core/email-sends/email-send-queries.js";
import { ENGAGEABLE_STATUSES } from "../../../core/email-sends/status.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { isPostgres } from "../connection.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const NullableString = t.union([t.string, t.null]);

const SummaryRow = t.type({
  id: t.string,
  status: oneOf<SendStatus>(SEND_STATUSES),
  recipient_email: t.string,
  subject: t.string,
  subscriber_id: NullableString,
  email_type: oneOf<EmailType>(EMAIL_TYPES),
  transactional_email_id: NullableString,
  automation_node_id: NullableString,
  sent_at: DbNullableDate,
  delivered_at: DbNullableDate,
  first_opened_at: DbNullableDate,
  first_clicked_at: DbNullableDate,
  created_at: DbDate,
  held_at: DbNullableDate,
});

const RecordRow = t.intersection([
  SummaryRow,
  t.type({
    company_id: t.string,
    send_kind: t.union([oneOf<SendKind>(SEND_KINDS), t.null]),
    sender_email: t.string,
    sender_name: NullableString,
    reply_to: NullableString,
    html: NullableString,
    suppression_reason: NullableString,
    failure_reason: NullableString,
    suppressed_at: DbNullableDate,
    payload: t.union([t.null, dbJson(t.unknown)]),
  }),
]);

const EventRow = t.type({ id: t.string, email_send_id: t.string, event_type: t.string, event_time: DbDate, machine: DbBoolean });

const CopyRole = oneOf<"cc" | "bcc">(["cc", "bcc"]);
/** How a cc or bcc copy names its primary send in the payload: `copyOf {emailSendId, role}`, or `copyOf` + `copyRole`. */
const CopyPayload = t.union([t.type({ copyOf: t.type({ emailSendId: t.string, role: CopyRole }) }), t.type({ copyOf: t.string, copyRole: CopyRole })]);

function copyOf(payload: unknown): EmailSendRecord["copyOf"] {
  const decoded = CopyPayload.decode(payload);
  if (decoded._tag === "Left") return null;
  const value = decoded.right;
  return "copyRole" in value ? { emailSendId: value.copyOf, role: value.copyRole } : value.copyOf;
}

const SUMMARY_COLUMNS = Object.keys(SummaryRow.props);
const RECORD_COLUMNS = [...SUMMARY_COLUMNS, ...Object.keys(RecordRow.types[1].props)];

/** Every timestamp an event leaves on the send, the creation first (never null). */
const EVENT_COLUMNS = [
  "created_at",
  "sent_at",
  "delivered_at",
  "first_opened_at",
  "first_clicked_at",
  "bounced_at",
  "complained_at",
  "unsubscribed_at",
  "replied_at",
  "suppressed_at",
];

function toSummary(row: unknown): EmailSendSummary {
  const r = decodeRow(SummaryRow, row, "email_sends");
  return {
    id: r.id,
    status: r.status,
    recipientEmail: r.recipient_email,
    subject: r.subject,
    subscriberId: r.subscriber_id,
    emailType: r.email_type,
    transactionalEmailId: r.transactional_email_id,
    automationNodeId: r.automation_node_id,
    sentAt: r.sent_at,
    deliveredAt: r.delivered_at,
    openedAt: r.first_opened_at,
    clickedAt: r.first_clicked_at,
    createdAt: r.created_at,
    heldAt: r.held_at,
  };
}

/** Escapes LIKE wildcards so a search for `a_b` finds only `a_b`. */
const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Searches `email_sends` and reads a send's `email_events`. The shown status (engagement
 * advancing sent and delivered sends to opened and clicked) is computed in SQL so it can be
 * filtered and sorted on; it mirrors emailSendStatus in the core.
 */
export class KnexEmailSendQueries implements EmailSendQueries {
  private readonly statusSql: string;
  private readonly eventAtSql: string;

  constructor(private readonly knex: Knex) {
    const engageable = ENGAGEABLE_STATUSES.map((status) => `'${status}'`).join(", ");
    this.statusSql =
      `(case when status in (${engageable}) then ` +
      "(case when first_clicked_at is not null then 'clicked' when first_opened_at is not null then 'opened' else status end) " +
      "else status end)";
    // Postgres' greatest skips nulls; SQLite's multi-argument max returns null if any is null.
    this.eventAtSql = isPostgres(knex)
      ? `greatest(${EVENT_COLUMNS.join(", ")})`
      : `max(${EVENT_COLUMNS.map((column, i) => (i === 0 ? column : `coalesce(${column}, created_at)`)).join(", ")})`;
  }

  private orderSql(field: EmailSendSortField): string {
    switch (field) {
      case "recipientEmail":
        return "recipient_email";
      case "subject":
        return "lower(subject)";
      case "status":
        return this.statusSql;
      case "eventAt":
        return this.eventAtSql;
      case "sentAt":
        return "sent_at";
      case "createdAt":
        return "created_at";
    }
  }

  async search(companyId: string, criteria: EmailSendCriteria): Promise<{ emailSends: EmailSendSummary[]; total: number }> {
    const base = this.knex("email_sends").where({ company_id: companyId }).andWhere("created_at", ">=", toDbDate(criteria.createdSince));
    if (criteria.search) {
      const pattern = likePattern(criteria.search);
      base.andWhere((either) =>
        either.whereRaw("lower(subject) like ? escape '\\'", [pattern]).orWhereRaw("lower(recipient_email) like ? escape '\\'", [pattern]),
      );
    }
    if (criteria.subject) base.andWhereRaw("lower(subject) like ? escape '\\'", [likePattern(criteria.subject)]);
    if (criteria.recipient) base.andWhereRaw("lower(recipient_email) like ? escape '\\'", [likePattern(criteria.recipient)]);
    if (criteria.statuses && criteria.statuses.length > 0) {
      base.andWhereRaw(`${this.statusSql} in (${criteria.statuses.map(() => "?").join(", ")})`, [...criteria.statuses]);
    }
    if (criteria.emailType) base.andWhere("email_type", criteria.emailType);
    if (criteria.bounceType) base.andWhere("bounce_type", criteria.bounceType);
    if (criteria.campaignId) base.andWhere("campaign_id", criteria.campaignId);
    if (criteria.transactionalEmailId) base.andWhere("transactional_email_id", criteria.transactionalEmailId);
    if (criteria.automationId) base.andWhere("automation_id", criteria.automationId);
    if (criteria.automationNodeId) base.andWhere("automation_node_id", criteria.automationNodeId);
    if (criteria.held === true) base.andWhere("status", "pending").whereNotNull("held_at");
    if (criteria.held === false) base.andWhere((notHeld) => notHeld.whereNot("status", "pending").orWhereNull("held_at"));

    const [counted] = await base.clone().count({ total: "*" });
    const order = criteria.sortOrder === "asc" ? "asc" : "desc";
    // Sends never sent (sentAt null) come last either way; the ID breaks ties so pages never overlap.
    const rows = await base
      .clone()
      .select(SUMMARY_COLUMNS)
      .orderByRaw(`${this.orderSql(criteria.sortField)} ${order} nulls last, id ${order}`)
      .limit(criteria.limit)
      .offset((criteria.page - 1) * criteria.limit);
    return {
      total: decodeRow(t.type({ total: DbInteger }), counted, "email_sends").total,
      emailSends: rows.map(toSummary),
    };
  }

  async find(companyId: string, emailSendId: string): Promise<EmailSendRecord | null> {
    const row = await this.knex("email_sends")
      .leftJoin("email_send_contents", "email_send_contents.email_send_id", "email_sends.id")
      .select(RECORD_COLUMNS.map((column) => (column === "html" ? "email_send_contents.html" : `email_sends.${column}`)))
      .where({ "email_sends.company_id": companyId, "email_sends.id": emailSendId })
      .first();
    if (!row) return null;
    const r = decodeRow(RecordRow, row, "email_sends");
    return {
      ...toSummary(row),
      companyId: r.company_id,
      sendKind: r.send_kind,
      senderEmail: r.sender_email,
      senderName: r.sender_name,
      replyTo: r.reply_to,
      html: r.html,
      suppressionReason: r.suppression_reason,
      failureReason: r.failure_reason,
      suppressedAt: r.suppressed_at,
      copyOf: copyOf(r.payload),
    };
  }

  async events(companyId: string, emailSendId: string): Promise<EmailSendEventRecord[]> {
    const rows = await this.knex("email_events")
      .select("id", "email_send_id", "event_type", "event_time", "machine")
      .where({ company_id: companyId, email_send_id: emailSendId })
      .orderBy([
        { column: "event_time", order: "asc" },
        { column: "id", order: "asc" },
      ]);
    return rows.map((row) => {
      const r = decodeRow(EventRow, row, "email_events");
      return { id: r.id, emailSendId: r.email_send_id, eventType: r.event_type, eventTime: r.event_time, machine: r.machine };
    });
  }
}
