import * as t from "io-ts";
import type { Knex } from "knex";
import type { MachineReason, RecordedClick } from "../../../core/tracking/machine-engagement.js";
import type { Engagement, TrackedSend } from "../../../core/tracking/model.js";
import type { EngagementRepository } from "../../../core/tracking/ports.js";
import { isPostgres } from "../connection.js";
import { DbBoolean, DbDate, DbNullableDate, decodeRow, toDbDate } from "../row-codecs.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { publishEmailEvent } from "./email-webhook-events.js";

const TrackedSendRow = t.type({
  id: t.string,
  company_id: t.string,
  subscriber_id: t.union([t.string, t.null]),
  recipient_email: t.string,
  open_tracking: DbBoolean,
  click_tracking: DbBoolean,
  sent_at: DbNullableDate,
  delivered_at: DbNullableDate,
  unsubscribed_at: DbNullableDate,
  automation_id: t.union([t.string, t.null]),
});
const ClickRow = t.type({ url: t.string, event_time: DbDate });
const FirstRow = t.type({ first: DbNullableDate });

/** The send's first-engagement columns, by the mark that sets each. */
const FIRST_COLUMNS = {
  opened: "first_opened_at",
  humanOpened: "first_human_opened_at",
  clicked: "first_clicked_at",
  humanClicked: "first_human_clicked_at",
} as const;

/** The send's first machine open and click, which the metrics count machine engagement from. */
const FIRST_MACHINE_COLUMNS = { open: "first_machine_opened_at", click: "first_machine_clicked_at" } as const;

const earliest = (...dates: ReadonlyArray<Date | null>): Date | null =>
  dates.reduce<Date | null>((min, date) => (date !== null && (min === null || date < min) ? date : min), null);

/** Opens, clicks and unsubscribes on `email_sends` and `email_events`; every write names the company. */
export class KnexEngagementRepository implements EngagementRepository {
  constructor(
    private readonly knex: Knex,
    /** Publishes people's opens and clicks, and unsubscribes, to the company's webhooks in the transactions that record them. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  async findSend(sendId: string): Promise<TrackedSend | null> {
    const row = await this.knex("email_sends")
      .where({ id: sendId })
      .first(
        "id",
        "company_id",
        "subscriber_id",
        "recipient_email",
        "open_tracking",
        "click_tracking",
        "sent_at",
        "delivered_at",
        "unsubscribed_at",
        "automation_id",
      );
    if (!row) return null;
    const r = decodeRow(TrackedSendRow, row, "email_sends");
    return {
      id: r.id,
      companyId: r.company_id,
      subscriberId: r.subscriber_id,
      recipientEmail: r.recipient_email,
      openTracking: r.open_tracking,
      clickTracking: r.click_tracking,
      sentAt: r.sent_at,
      deliveredAt: r.delivered_at,
      unsubscribedAt: r.unsubscribed_at,
      automationId: r.automation_id,
    };
  }

  async recordEngagement(e: Engagement): Promise<void> {
    const at = toDbDate(e.at);
    let published = 0;
    await this.knex.transaction(async (trx) => {
      await trx("email_events").insert({
        id: e.id,
        company_id: e.companyId,
        email_send_id: e.sendId,
        event_type: e.kind,
        event_time: at,
        url: e.url,
        machine: e.machine,
        machine_reason: e.machineReason,
        user_agent: e.userAgent,
        ip: e.ip,
        created_at: at,
      });
      // Scanners' and prefetchers' opens and clicks are kept out of webhooks as out of the numbers.
      if (!e.machine) {
        published = await publishEmailEvent(this.webhooks, trx, e.companyId, e.sendId, {
          id: e.id,
          type: e.kind === "open" ? "email.opened" : "email.clicked",
          at: e.at,
          extra: e.kind === "click" ? { url: e.url } : {},
        });
      }
      // Each marked column keeps the earliest time: set once, and right under concurrent requests
      // (the row lock makes a later update see the earlier one's value).
      const columns: string[] = (Object.keys(FIRST_COLUMNS) as Array<keyof typeof FIRST_COLUMNS>)
        .filter((mark) => e.marks[mark])
        .map((mark) => FIRST_COLUMNS[mark]);
      if (e.machine) columns.push(FIRST_MACHINE_COLUMNS[e.kind]);
      if (columns.length === 0) return;
      const changes = Object.fromEntries(
        columns.map((column) => [column, trx.raw("case when ?? is null or ?? > ? then ? else ?? end", [column, column, at, at, column])]),
      );
      await trx("email_sends").where({ company_id: e.companyId, id: e.sendId }).update(changes);
    });
    await this.webhooks?.announce(published);
  }

  async clicksSince(companyId: string, sendId: string, since: Date): Promise<RecordedClick[]> {
    const rows = await this.knex("email_events")
      .where({ company_id: companyId, email_send_id: sendId, event_type: "click" })
      .where("event_time", ">=", toDbDate(since))
      .select("url", "event_time");
    return rows.map((row) => {
      const r = decodeRow(ClickRow, row, "email_events");
      return { url: r.url, at: r.event_time };
    });
  }

  async reclassifyClicks(companyId: string, sendId: string, since: Date, reason: MachineReason): Promise<void> {
    await this.knex.transaction(async (trx) => {
      // The send's row lock orders this after, or before, any engagement being recorded on it.
      const send = trx("email_sends").where({ company_id: companyId, id: sendId }).first("open_tracking");
      const locked = await (isPostgres(trx) ? send.forUpdate() : send);
      if (!locked) return;
      const openTracking = decodeRow(t.type({ open_tracking: DbBoolean }), locked, "email_sends").open_tracking;

      await trx("email_events")
        .where({ company_id: companyId, email_send_id: sendId, event_type: "click", machine: false })
        .where("event_time", ">=", toDbDate(since))
        .update({ machine: true, machine_reason: reason });

      const first = async (eventType: "open" | "click", by: "anyone" | "person" | "machine"): Promise<Date | null> => {
        const query = trx("email_events").where({ company_id: companyId, email_send_id: sendId, event_type: eventType });
        if (by !== "anyone") query.where({ machine: by === "machine" });
        return decodeRow(FirstRow, await query.first(trx.raw("min(event_time) as first")), "email_events").first;
      };
      const humanClick = await first("click", "person");
      const clickAsOpen = openTracking ? humanClick : null;
      await trx("email_sends")
        .where({ company_id: companyId, id: sendId })
        .update({
          first_opened_at: toDbDate(earliest(await first("open", "anyone"), clickAsOpen)),
          first_human_opened_at: toDbDate(earliest(await first("open", "person"), clickAsOpen)),
          first_human_clicked_at: toDbDate(humanClick),
          first_machine_clicked_at: toDbDate(await first("click", "machine")),
        });
    });
  }

  async markUnsubscribed(companyId: string, sendId: string, eventId: string, at: Date): Promise<boolean> {
    const time = toDbDate(at);
    let published = 0;
    const marked = await this.knex.transaction(async (trx) => {
      const updated = await trx("email_sends")
        .where({ company_id: companyId, id: sendId })
        .whereNull("unsubscribed_at")
        .update({ unsubscribed_at: time, updated_at: time });
      if (updated === 0) return false;
      await trx("email_events").insert({
        id: eventId,
        company_id: companyId,
        email_send_id: sendId,
        event_type: "unsubscribe",
        event_time: time,
        created_at: time,
      });
      published = await publishEmailEvent(this.webhooks, trx, companyId, sendId, { id: eventId, type: "email.unsubscribed", at });
      return true;
    });
    await this.webhooks?.announce(published);
    return marked;
  }
}
