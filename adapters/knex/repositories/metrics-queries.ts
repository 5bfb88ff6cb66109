import * as t from "io-ts";
import type { Knex } from "knex";
import type { BounceSubtypeCount, FunnelCounts, LinkClicks } from "../../../core/metrics/model.js";
import type { MetricsQueries, SendSelection, TransactionalIdentity } from "../../../core/metrics/ports.js";
import { DbInteger, decodeRow, toDbDate } from "../row-codecs.js";
import { withoutParallelWorkers } from "../without-parallel-workers.js";

/** SUM over no rows is NULL, and Postgres returns counts as strings: both read as integers. */
const Count = t.union([DbInteger, t.null]);
const count = (value: number | null): number => value ?? 0;

const FunnelRow = t.type({
  sent: Count,
  delivery_events: Count,
  delivered: Count,
  bounced: Count,
  permanent_bounces: Count,
  transient_bounces: Count,
  opened: Count,
  human_opened: Count,
  clicked: Count,
  human_clicked: Count,
  machine_opened: Count,
  machine_clicked: Count,
  replies: Count,
  complaints: Count,
  unsubscribed: Count,
});

/** Engagement of any kind proves that the message reached the mailbox. */
const PROVEN_DELIVERED = [
  "delivered_at",
  "first_opened_at",
  "first_human_opened_at",
  "first_clicked_at",
  "first_human_clicked_at",
  "replied_at",
  "complained_at",
  "unsubscribed_at",
]
  .map((column) => `s.${column} is not null`)
  .join(" or ");

/** How much earlier than its send an event's time may read (clocks of different machines). */
const CLOCK_SLACK_MS = 24 * 3_600_000;

const sumWhen = (condition: string) => `coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;

/** The funnel's aggregates over the selected sends `s` (one row, or one per group). */
export const FUNNEL_COLUMNS = [
  "count(*) as sent",
  "count(s.delivered_at) as delivery_events",
  `${sumWhen(PROVEN_DELIVERED)} as delivered`,
  "count(s.bounced_at) as bounced",
  `${sumWhen("s.bounced_at is not null and lower(s.bounce_type) = 'permanent'")} as permanent_bounces`,
  `${sumWhen("s.bounced_at is not null and lower(s.bounce_type) = 'transient'")} as transient_bounces`,
  "count(coalesce(s.first_opened_at, s.first_human_opened_at)) as opened",
  "count(s.first_human_opened_at) as human_opened",
  "count(coalesce(s.first_clicked_at, s.first_human_clicked_at)) as clicked",
  "count(s.first_human_clicked_at) as human_clicked",
  "count(s.first_machine_opened_at) as machine_opened",
  "count(s.first_machine_clicked_at) as machine_clicked",
  "count(s.replied_at) as replies",
  "count(s.complained_at) as complaints",
  "count(s.unsubscribed_at) as unsubscribed",
].join(", ");

export function toFunnelCounts(row: unknown): FunnelCounts {
  const r = decodeRow(FunnelRow, row, "email_sends");
  return {
    sent: count(r.sent),
    deliveryEvents: count(r.delivery_events),
    delivered: count(r.delivered),
    bounced: count(r.bounced),
    permanentBounces: count(r.permanent_bounces),
    transientBounces: count(r.transient_bounces),
    opened: count(r.opened),
    humanOpened: count(r.human_opened),
    clicked: count(r.clicked),
    humanClicked: count(r.human_clicked),
    machineOpened: count(r.machine_opened),
    machineClicked: count(r.machine_clicked),
    replies: count(r.replies),
    complaints: count(r.complaints),
    unsubscribed: count(r.unsubscribed),
  };
}

/**
 * Metrics as conditional aggregates over `email_sends` (one row per send carrying its first
 * open, click, the latest bounce...), found by (company_id, sent_at); events are read only
 * for the clicked links.
 */
export class KnexMetricsQueries implements MetricsQueries {
  constructor(private readonly knex: Knex) {}

  /** The selected sends as `s`. */
  private sends(selection: SendSelection, table = "email_sends as s"): Knex.QueryBuilder {
    const query = this.knex(table).where("s.company_id", selection.companyId).where("s.is_test", false);
    const { start, end } = selection.window;
    if (start) query.where("s.sent_at", ">=", toDbDate(start));
    if (end) query.where("s.sent_at", "<=", toDbDate(end));
    if (!start && !end) query.whereNotNull("s.sent_at");
    if (selection.transactionalEmailId !== undefined) query.where("s.transactional_email_id", selection.transactionalEmailId);
    if (selection.campaignId !== undefined) query.where("s.campaign_id", selection.campaignId);
    if (selection.emailType !== undefined) query.where("s.email_type", selection.emailType);
    if (selection.mailboxProvider !== undefined) query.where("s.mailbox_provider", selection.mailboxProvider);
    return query;
  }

  async funnel(selection: SendSelection): Promise<FunnelCounts> {
    const row = await withoutParallelWorkers<unknown>(this.knex, this.sends(selection).first(this.knex.raw(FUNNEL_COLUMNS)));
    return toFunnelCounts(row);
  }

  async funnelsByTransactional(selection: SendSelection, transactionalEmailIds: readonly string[]): Promise<ReadonlyMap<string, FunnelCounts>> {
    if (transactionalEmailIds.length === 0) return new Map();
    const rows: unknown[] = await this.sends(selection)
      .whereIn("s.transactional_email_id", [...new Set(transactionalEmailIds)])
      .groupBy("s.transactional_email_id")
      .select("s.transactional_email_id", this.knex.raw(FUNNEL_COLUMNS));
    return new Map(
      rows.map((row) => [decodeRow(t.type({ transactional_email_id: t.string }), row, "email_sends").transactional_email_id, toFunnelCounts(row)]),
    );
  }

  async bounceSubtypes(selection: SendSelection): Promise<BounceSubtypeCount[]> {
    const rows = await this.sends(selection)
      .whereNotNull("s.bounced_at")
      .groupBy("s.bounce_type", "s.bounce_sub_type")
      .select("s.bounce_type", "s.bounce_sub_type", this.knex.raw("count(*) as n"));
    return rows.map((row: unknown) => {
      const r = decodeRow(t.type({ bounce_type: t.union([t.string, t.null]), bounce_sub_type: t.union([t.string, t.null]), n: DbInteger }), row, "email_sends");
      return { type: r.bounce_type ?? "", subType: r.bounce_sub_type ?? "", count: r.n };
    });
  }

  /**
   * Clicks of the selected sends as `e`: the clicks from the window on (less a day of clock
   * slack; none happens before its send) read from the engagement index, kept when their send
   * is among the window's clicked sends, read from their partial index. `|| ''` on both sides
   * makes that one hashed set: without it the planner probes the sends' rows (or the events)
   * one click at a time, several times slower.
   */
  private clicks(selection: SendSelection, machine: readonly boolean[]): Knex.QueryBuilder {
    const clickedSends = this.sends(selection).whereNotNull("s.first_clicked_at").select(this.knex.raw("s.id || ''"));
    const query = this.knex("email_events as e")
      .where("e.company_id", selection.companyId)
      .where("e.event_type", "click")
      .whereIn("e.machine", machine)
      .whereIn(this.knex.raw("e.email_send_id || ''") as unknown as string, clickedSends);
    if (selection.window.start) query.where("e.event_time", ">=", toDbDate(new Date(selection.window.start.getTime() - CLOCK_SLACK_MS)));
    return query;
  }

  async clickedLinks(selection: SendSelection, options: { includeMachineEngagement: boolean; limit: number }): Promise<LinkClicks[]> {
    // Each (link, send) pair once, then the pairs per link: two hashed groupings, where
    // count(distinct) would sort every click by link.
    const clickingSends = this.clicks(selection, options.includeMachineEngagement ? [false, true] : [false])
      .whereNotNull("e.url")
      .groupBy("e.url", "e.email_send_id")
      .select("e.url");
    const rows = await this.knex
      .from(clickingSends.as("c"))
      .groupBy("c.url")
      .select("c.url", this.knex.raw("count(*) as clicks"))
      .orderBy([
        { column: "clicks", order: "desc" },
        { column: "c.url", order: "asc" },
      ])
      .limit(options.limit);
    return rows.map((row: unknown) => {
      const r = decodeRow(t.type({ url: t.string, clicks: DbInteger }), row, "email_events");
      return { url: r.url, clicks: r.clicks };
    });
  }

  async subscriberCounts(companyId: string): Promise<{ total: number; active: number }> {
    const row = await this.knex("subscribers")
      .where({ company_id: companyId })
      .first(this.knex.raw(`count(*) as total, ${sumWhen("status = 'active'")} as active`));
    const r = decodeRow(t.type({ total: Count, active: Count }), row, "subscribers");
    return { total: count(r.total), active: count(r.active) };
  }

  async findTransactional(companyId: string, idOrSlug: string): Promise<TransactionalIdentity | null> {
    const row = await this.knex("transactional_emails")
      .where({ company_id: companyId })
      .whereNull("deleted_at")
      .where((where) => where.where("id", idOrSlug).orWhere("slug", idOrSlug))
      // An ID beats a slug that happens to look like one.
      .orderByRaw("case when id = ? then 0 else 1 end", [idOrSlug])
      .first("id", "name", "slug");
    return row ? decodeRow(t.type({ id: t.string, name: t.string, slug: t.string }), row, "transactional_emails") : null;
  }
}
