import * as t from "io-ts";
import type { Knex } from "knex";
import { StoredEmailEventType, type ContactEmailEvent, type ContactEmailStats, type ContactEngagementQueries } from "../../../core/subscribers/engagement.js";
import type { ActivityPosition } from "../../../core/subscribers/activity-cursor.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, decodeRow } from "../row-codecs.js";
import { olderThan } from "./activity-before.js";

const NullableText = t.union([t.string, t.null]);

const StatsRow = t.type({
  sent: DbInteger,
  delivered: DbInteger,
  opened: DbInteger,
  clicked: DbInteger,
  bounced: DbInteger,
  complained: DbInteger,
  unsubscribed: DbInteger,
  last_sent_at: DbNullableDate,
});
const LastRow = t.type({ last_opened_at: DbNullableDate, last_clicked_at: DbNullableDate });

const EventRow = t.type({
  id: t.string,
  event_type: StoredEmailEventType,
  event_time: DbDate,
  email_send_id: t.string,
  campaign_id: NullableText,
  subject: t.string,
  url: NullableText,
  bounce_type: NullableText,
  machine: DbBoolean,
  machine_reason: NullableText,
});

/**
 * A contact's email engagement from its sends (`email_sends_contact` index) and their events
 * (by send): counts from the firsts kept on each send, as the metrics count them.
 */
export class KnexContactEngagementQueries implements ContactEngagementQueries {
  constructor(private readonly knex: Knex) {}

  async emailStats(companyId: string, subscriberId: string, options: { readonly includeMachineEngagement: boolean }): Promise<ContactEmailStats> {
    const [opened, clicked] = options.includeMachineEngagement ? ["first_opened_at", "first_clicked_at"] : ["first_human_opened_at", "first_human_clicked_at"];
    const sends = () => this.knex("email_sends as s").where({ "s.company_id": companyId, "s.subscriber_id": subscriberId, "s.is_test": false });
    const lastEngagement = this.knex("email_events as e")
      .join("email_sends as s", "s.id", "e.email_send_id")
      .where({ "s.company_id": companyId, "s.subscriber_id": subscriberId, "s.is_test": false })
      .whereIn("e.event_type", ["open", "click"]);
    if (!options.includeMachineEngagement) lastEngagement.where("e.machine", false);
    const [stats, last] = await Promise.all([
      sends()
        .first(
          this.knex.raw("count(s.sent_at) as sent"),
          this.knex.raw("count(s.delivered_at) as delivered"),
          this.knex.raw(`count(s.${opened}) as opened`),
          this.knex.raw(`count(s.${clicked}) as clicked`),
          this.knex.raw("count(s.bounced_at) as bounced"),
          this.knex.raw("count(s.complained_at) as complained"),
          this.knex.raw("count(s.unsubscribed_at) as unsubscribed"),
          this.knex.raw("max(s.sent_at) as last_sent_at"),
        )
        .then((row: unknown) => decodeRow(StatsRow, row, "email_sends")),
      lastEngagement
        .first(
          this.knex.raw("max(case when e.event_type = 'open' then e.event_time end) as last_opened_at"),
          this.knex.raw("max(case when e.event_type = 'click' then e.event_time end) as last_clicked_at"),
        )
        .then((row: unknown) => decodeRow(LastRow, row, "email_events")),
    ]);
    return {
      sent: stats.sent,
      delivered: stats.delivered,
      opened: stats.opened,
      clicked: stats.clicked,
      bounced: stats.bounced,
      complained: stats.complained,
      unsubscribed: stats.unsubscribed,
      lastSentAt: stats.last_sent_at,
      lastOpenedAt: last.last_opened_at,
      lastClickedAt: last.last_clicked_at,
    };
  }

  async recentEmailEvents(companyId: string, subscriberId: string, limit: number, before: ActivityPosition | null): Promise<ContactEmailEvent[]> {
    const sent = this.knex("email_events as e")
      .join("email_sends as s", "s.id", "e.email_send_id")
      .where({ "s.company_id": companyId, "s.subscriber_id": subscriberId, "s.is_test": false, "e.company_id": companyId });
    const rows = await olderThan(sent, "e.event_time", "e.id", before)
      .orderBy([
        { column: "e.event_time", order: "desc" },
        { column: "e.id", order: "desc" },
      ])
      .limit(limit)
      .select(
        "e.id",
        "e.event_type",
        "e.event_time",
        "e.email_send_id",
        "s.campaign_id",
        "s.subject",
        "e.url",
        "e.bounce_type",
        "e.machine",
        "e.machine_reason",
      );
    return rows.map((row: unknown) => {
      const r = decodeRow(EventRow, row, "email_events");
      return {
        id: r.id,
        type: r.event_type,
        occurredAt: r.event_time,
        emailSendId: r.email_send_id,
        campaignId: r.campaign_id,
        subject: r.subject,
        url: r.url,
        bounceType: r.bounce_type,
        machine: r.machine,
        machineReason: r.machine_reason,
      };
    });
  }
}
