import type { Knex } from "knex";
import type { EventCursor } from "../../../core/data-exports/model.js";
import type { EventRow, ExportSource } from "../../../core/data-exports/ports.js";
import type { CustomEventRecord, EmailEventRecord, SubscriberRecord } from "../../../core/data-exports/records.js";
import { isPostgres } from "../connection.js";
import { toDbDate } from "../row-codecs.js";

/**
 * The rows data exports write, a page at a time, in keyset order over the indexes made for it:
 * email events by (company_id, created_at, id), custom events by (company_id, received_at, id),
 * subscribers by (company_id, id). Rows are mapped by hand rather than through io-ts codecs:
 * this runs once per exported row (millions), and every column is checked by `text`, `iso`,
 * `flag` and `json` below, which throw on anything unexpected.
 */
export class KnexExportSource implements ExportSource {
  private readonly postgres: boolean;

  constructor(private readonly knex: Knex) {
    this.postgres = isPostgres(knex);
  }

  async emailEvents(companyId: string, after: EventCursor, before: Date, limit: number): Promise<Array<EventRow<EmailEventRecord>>> {
    const rows: Array<Record<string, unknown>> = await this.knex
      .raw(
        `select e.id, e.event_type, e.event_time, e.created_at, e.email_send_id, e.bounce_type, e.bounce_sub_type, e.url,
              e.machine, e.machine_reason, e.user_agent, e.ip,
              s.subscriber_id, s.recipient_email, s.email_type, s.subject, s.campaign_id, s.transactional_email_id,
              s.automation_id, s.template_id, s.is_test
         from email_events e join email_sends s on s.id = e.email_send_id
        where e.company_id = ? and e.created_at >= ? and (e.created_at > ? or e.id > ?) and e.created_at < ?
        order by e.created_at, e.id
        limit ?`,
        [companyId, toDbDate(after.at), toDbDate(after.at), after.id, toDbDate(before), limit],
      )
      .then((result) => this.rowsOf(result));
    return rows.map((r) => {
      const record: EmailEventRecord = {
        id: text(r.id),
        type: text(r.event_type),
        occurredAt: iso(r.event_time),
        recordedAt: iso(r.created_at),
        emailSendId: text(r.email_send_id),
        subscriberId: textOrNull(r.subscriber_id),
        recipientEmail: text(r.recipient_email),
        emailType: text(r.email_type),
        subject: text(r.subject),
        campaignId: textOrNull(r.campaign_id),
        transactionalEmailId: textOrNull(r.transactional_email_id),
        automationId: textOrNull(r.automation_id),
        templateId: textOrNull(r.template_id),
        isTest: flag(r.is_test),
        bounceType: textOrNull(r.bounce_type),
        bounceSubType: textOrNull(r.bounce_sub_type),
        url: textOrNull(r.url),
        machine: flag(r.machine),
        machineReason: textOrNull(r.machine_reason),
        userAgent: textOrNull(r.user_agent),
        ip: textOrNull(r.ip),
      };
      return { recordedAt: record.recordedAt, id: record.id, record };
    });
  }

  async customEvents(companyId: string, after: EventCursor, before: Date, limit: number): Promise<Array<EventRow<CustomEventRecord>>> {
    const rows: Array<Record<string, unknown>> = await this.knex
      .raw(
        `select c.id, c.name, c.subscriber_id, s.email, c.properties, c.occurred_at, c.received_at, c.event_id, c.source, c.historical
         from custom_events c join subscribers s on s.id = c.subscriber_id
        where c.company_id = ? and c.received_at >= ? and (c.received_at > ? or c.id > ?) and c.received_at < ?
        order by c.received_at, c.id
        limit ?`,
        [companyId, toDbDate(after.at), toDbDate(after.at), after.id, toDbDate(before), limit],
      )
      .then((result) => this.rowsOf(result));
    return rows.map((r) => {
      const record: CustomEventRecord = {
        id: text(r.id),
        name: text(r.name),
        subscriberId: text(r.subscriber_id),
        email: text(r.email),
        properties: json(r.properties),
        occurredAt: iso(r.occurred_at),
        recordedAt: iso(r.received_at),
        eventId: textOrNull(r.event_id),
        source: text(r.source),
        historical: flag(r.historical),
      };
      return { recordedAt: record.recordedAt, id: record.id, record };
    });
  }

  async subscribers(companyId: string, afterId: string | null, limit: number): Promise<SubscriberRecord[]> {
    const query = this.knex("subscribers").where({ company_id: companyId });
    if (afterId !== null) query.where("id", ">", afterId);
    const rows: Array<Record<string, unknown>> = await query.orderBy("id").limit(limit);
    if (rows.length === 0) return [];
    const ids = rows.map((r) => text(r.id));
    const tags = await this.knex("subscriber_tags as st")
      .join("tags as t", "t.id", "st.tag_id")
      .where("st.company_id", companyId)
      .whereIn("st.subscriber_id", ids)
      .select("st.subscriber_id", "t.name");
    const lists = await this.knex("list_memberships")
      .where({ company_id: companyId })
      .whereIn("subscriber_id", ids)
      .whereNull("unsubscribed_at")
      .select("subscriber_id", "list_id");
    const tagsOf = groupBy(tags as Array<Record<string, unknown>>, "name");
    const listsOf = groupBy(lists as Array<Record<string, unknown>>, "list_id");
    return rows.map((r) => ({
      id: text(r.id),
      email: text(r.email),
      externalId: textOrNull(r.external_id),
      firstName: textOrNull(r.first_name),
      lastName: textOrNull(r.last_name),
      phone: textOrNull(r.phone),
      status: text(r.status),
      smsStatus: text(r.sms_status),
      emailProvider: textOrNull(r.email_provider),
      timezone: textOrNull(r.timezone),
      customAttributes: json(r.custom_attributes),
      tags: (tagsOf.get(text(r.id)) ?? []).sort(),
      listIds: (listsOf.get(text(r.id)) ?? []).sort(),
      unsubscribedAt: isoOrNull(r.unsubscribed_at),
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    }));
  }

  private rowsOf(result: unknown): Array<Record<string, unknown>> {
    return this.postgres ? (result as { rows: Array<Record<string, unknown>> }).rows : (result as Array<Record<string, unknown>>);
  }
}

function groupBy(rows: ReadonlyArray<Record<string, unknown>>, value: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const row of rows) {
    const key = text(row.subscriber_id);
    const list = groups.get(key);
    if (list) list.push(text(row[value]));
    else groups.set(key, [text(row[value])]);
  }
  return groups;
}

const unexpected = (value: unknown, expected: string): never => {
  throw new Error(`Unreadable export row: expected ${expected}, got ${typeof value} ${String(value).slice(0, 40)}`);
};

const text = (value: unknown): string => (typeof value === "string" ? value : unexpected(value, "text"));
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : text(value));

/** ISO 8601 as stored: Postgres gives Dates, SQLite the ISO text that was written. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
function iso(value: unknown): string {
  if (typeof value === "string" && ISO.test(value)) return value;
  const date = value instanceof Date ? value : typeof value === "string" || typeof value === "number" ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : unexpected(value, "a timestamp");
}
const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value));

/** Booleans: Postgres true/false, SQLite 1/0. */
const flag = (value: unknown): boolean => (typeof value === "boolean" ? value : value === 1 || value === 0 ? value === 1 : unexpected(value, "a boolean"));

/** JSON documents: parsed already on Postgres, text on SQLite. */
function json(value: unknown): Record<string, unknown> {
  const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : unexpected(value, "a JSON object");
}
