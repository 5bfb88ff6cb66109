import * as t from "io-ts";
import type { Knex } from "knex";
import {
  CAMPAIGN_EVENT_TYPES,
  type CampaignEventRecord,
  type CampaignEventSelection,
  type EmailFunnel,
  type EmailFunnelSelection,
  type EmailMetricsQueries,
} from "../../../core/metrics/ports.js";
import type { MetricsWindow } from "../../../core/metrics/period.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { isPostgres } from "../connection.js";
import { DbBoolean, DbDate, DbInteger, decodeRow, toDbDate } from "../row-codecs.js";
import { FUNNEL_COLUMNS, toFunnelCounts } from "./metrics-queries.js";

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

const EventRow = t.type({
  id: t.string,
  email_send_id: t.string,
  event_type: oneOf(CAMPAIGN_EVENT_TYPES, "CampaignEventType"),
  event_time: DbDate,
  url: nullable(t.string),
  bounce_type: nullable(t.string),
  bounce_sub_type: nullable(t.string),
  machine: DbBoolean,
  recipient_email: t.string,
  subscriber_id: nullable(t.string),
  automation_node_id: nullable(t.string),
});

const EmailGroupRow = t.type({
  email_type: oneOf(["campaign", "sequence"] as const, "EmailType"),
  campaign_id: nullable(t.string),
  automation_id: nullable(t.string),
  automation_node_id: nullable(t.string),
});

const within = (query: Knex.QueryBuilder, column: string, window: MetricsWindow): Knex.QueryBuilder => {
  if (window.start) query.where(column, ">=", toDbDate(window.start));
  if (window.end) query.where(column, "<=", toDbDate(window.end));
  return query;
};

/**
 * A campaign's events, found through its sends (the campaign metrics index, then each send's
 * events by (email_send_id, event_time)), and the funnel of every campaign and sequence email in
 * one grouped aggregate. Test sends are never read.
 */
export class KnexEmailMetricsQueries implements EmailMetricsQueries {
  constructor(private readonly knex: Knex) {}

  private events(selection: CampaignEventSelection): Knex.QueryBuilder {
    const query = this.knex("email_sends as s")
      .join("email_events as e", "e.email_send_id", "s.id")
      .where({ "s.company_id": selection.companyId, "s.is_test": false, "e.company_id": selection.companyId })
      .whereIn("e.event_type", [...selection.eventTypes]);
    if (selection.campaignId !== undefined) query.where("s.campaign_id", selection.campaignId);
    if (selection.automationId !== undefined) query.where({ "s.email_type": "sequence", "s.automation_id": selection.automationId });
    if (selection.automationNodeId !== undefined) query.where("s.automation_node_id", selection.automationNodeId);
    if (selection.campaignId === undefined && selection.automationId === undefined) throw new Error("an events selection names a campaign or a sequence");
    if (!selection.includeMachineEngagement) query.where("e.machine", false);
    return within(query, "e.event_time", selection.window);
  }

  async campaignEvents(selection: CampaignEventSelection, page: { offset: number; limit: number }): Promise<{ events: CampaignEventRecord[]; total: number }> {
    const [rows, [counted]] = await Promise.all([
      this.events(selection)
        .select(
          "e.id",
          "e.email_send_id",
          "e.event_type",
          "e.event_time",
          "e.url",
          "e.bounce_type",
          "e.bounce_sub_type",
          "e.machine",
          "s.recipient_email",
          "s.subscriber_id",
          "s.automation_node_id",
        )
        .orderBy([
          { column: "e.event_time", order: "desc" },
          { column: "e.id", order: "desc" },
        ])
        .offset(page.offset)
        .limit(page.limit),
      this.events(selection).count({ n: "*" }),
    ]);
    const events = (rows as unknown[]).map((row) => {
      const r = decodeRow(EventRow, row, "email_events");
      return {
        id: r.id,
        emailSendId: r.email_send_id,
        eventType: r.event_type,
        eventTime: r.event_time,
        recipientEmail: r.recipient_email,
        subscriberId: r.subscriber_id,
        url: r.url,
        bounceType: r.bounce_type,
        bounceSubType: r.bounce_sub_type,
        machine: r.machine,
        automationNodeId: r.automation_node_id,
      };
    });
    return { events, total: decodeRow(t.type({ n: DbInteger }), counted, "email_events").n };
  }

  async funnelsByEmail(selection: EmailFunnelSelection): Promise<EmailFunnel[]> {
    const query = this.knex("email_sends as s").where({ "s.company_id": selection.companyId, "s.is_test": false });
    within(query, "s.sent_at", selection.window);
    if (!selection.window.start && !selection.window.end) query.whereNotNull("s.sent_at");
    const campaigns = selection.emailType !== "sequence" && selection.sequenceIds === undefined;
    const sequences = selection.emailType !== "campaign" && selection.campaignIds === undefined;
    query.where((which) => {
      if (campaigns) {
        which.orWhere((campaign) => {
          campaign.where("s.email_type", "campaign").whereNotNull("s.campaign_id");
          if (selection.campaignIds) campaign.whereIn("s.campaign_id", [...selection.campaignIds]);
        });
      }
      if (sequences) {
        which.orWhere((sequence) => {
          sequence.where("s.email_type", "sequence").whereNotNull("s.automation_id");
          if (selection.sequenceIds) sequence.whereIn("s.automation_id", [...selection.sequenceIds]);
        });
      }
      if (!campaigns && !sequences) which.whereRaw("1 = 0");
    });
    const rows: unknown[] = await query
      .groupBy("s.email_type", "s.campaign_id", "s.automation_id", "s.automation_node_id")
      .select("s.email_type", "s.campaign_id", "s.automation_id", "s.automation_node_id", this.knex.raw(FUNNEL_COLUMNS));
    return rows.map((row) => {
      const r = decodeRow(EmailGroupRow, row, "email_sends");
      return {
        emailType: r.email_type,
        campaignId: r.email_type === "campaign" ? r.campaign_id : null,
        sequenceId: r.email_type === "sequence" ? r.automation_id : null,
        automationNodeId: r.email_type === "sequence" ? r.automation_node_id : null,
        counts: toFunnelCounts(row),
      };
    });
  }

  async goalConversions(
    selection: { companyId: string; campaignId: string; window: MetricsWindow },
    goal: { eventName: string; windowHours: number },
  ): Promise<number> {
    const query = this.convertingSends(selection, goal);
    const row = await query.first(this.knex.raw("count(distinct s.subscriber_id) as n"));
    return decodeRow(t.type({ n: DbInteger }), row, "email_sends").n;
  }

  async goalEventProperties(
    selection: { companyId: string; campaignId: string; window: MetricsWindow },
    goal: { eventName: string; windowHours: number },
  ): Promise<Array<Readonly<Record<string, unknown>>>> {
    const first = this.goalEvents(selection.companyId, goal).orderBy("e.occurred_at").orderBy("e.id").limit(1).select("e.properties");
    const rows: Array<{ subscriber_id: string; properties: unknown }> = await this.convertingSends(selection, goal)
      .orderBy("s.sent_at")
      .select("s.subscriber_id", first.as("properties"));
    // A contact the campaign reached twice converts once: on its earliest send's first event.
    const byContact = new Map<string, Readonly<Record<string, unknown>>>();
    for (const row of rows) {
      if (byContact.has(row.subscriber_id)) continue;
      const properties: unknown = typeof row.properties === "string" ? JSON.parse(row.properties) : row.properties;
      byContact.set(row.subscriber_id, typeof properties === "object" && properties !== null ? (properties as Record<string, unknown>) : {});
    }
    return [...byContact.values()];
  }

  /** The campaign's sends of the window (test sends aside) whose contact did the goal's event within its window after the send. */
  private convertingSends(
    selection: { companyId: string; campaignId: string; window: MetricsWindow },
    goal: { eventName: string; windowHours: number },
  ): Knex.QueryBuilder {
    const query = this.knex("email_sends as s")
      .where({ "s.company_id": selection.companyId, "s.campaign_id": selection.campaignId, "s.is_test": false })
      .whereNotNull("s.subscriber_id")
      .whereNotNull("s.sent_at")
      .whereExists(this.goalEvents(selection.companyId, goal).select(this.knex.raw("1")));
    within(query, "s.sent_at", selection.window);
    return query;
  }

  /** The goal events of the send `s` (correlated): its contact's, from its sending to `windowHours` after. */
  private goalEvents(companyId: string, goal: { eventName: string; windowHours: number }): Knex.QueryBuilder {
    // The end of each send's window, in the column's own type: timestamptz on Postgres, ISO text on SQLite.
    const windowEnd = isPostgres(this.knex) ? "s.sent_at + make_interval(hours => ?::int)" : "strftime('%Y-%m-%dT%H:%M:%fZ', s.sent_at, '+' || ? || ' hours')";
    return this.knex("custom_events as e")
      .whereRaw("e.subscriber_id = s.subscriber_id")
      .where({ "e.company_id": companyId, "e.name": goal.eventName })
      .whereRaw("e.occurred_at >= s.sent_at")
      .whereRaw(`e.occurred_at <= ${windowEnd}`, [goal.windowHours]);
  }

  async campaignNames(companyId: string, campaignIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    if (campaignIds.length === 0) return new Map();
    const rows: unknown[] = await this.knex("campaigns")
      .where("company_id", companyId)
      .whereIn("id", [...new Set(campaignIds)])
      .select("id", "name");
    return new Map(
      rows.map((row) => {
        const r = decodeRow(t.type({ id: t.string, name: t.string }), row, "campaigns");
        return [r.id, r.name] as const;
      }),
    );
  }
}
