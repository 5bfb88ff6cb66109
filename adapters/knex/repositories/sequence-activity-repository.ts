import * as t from "io-ts";
import type { Knex } from "knex";
import type { ClickScope, ContactEventRecord, SequenceActivityRepository } from "../../../core/sequences/activity-ports.js";
import type { Enrollment } from "../../../core/sequences/enrollment.js";
import { DbDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { toEnrollment } from "./enrollment-repository.js";

const EventRow = t.type({ name: t.string, properties: dbJson(t.record(t.string, t.unknown)), received_at: DbDate });

/** Contact activity read by sequence steps (custom_events), and waking waiting enrollments (migration 0028). */
export class KnexSequenceActivityRepository implements SequenceActivityRepository {
  constructor(private readonly knex: Knex) {}

  async eventsAfter(
    companyId: string,
    subscriberId: string,
    name: string,
    after: Date,
    options: { readonly inclusive: boolean; readonly limit: number },
  ): Promise<ContactEventRecord[]> {
    const rows = await this.knex("custom_events")
      .where({ company_id: companyId, subscriber_id: subscriberId, name, historical: false })
      .andWhere("received_at", options.inclusive ? ">=" : ">", toDbDate(after))
      .orderBy("received_at")
      .limit(options.limit)
      .select("name", "properties", "received_at");
    return rows.map((row) => {
      const r = decodeRow(EventRow, row, "custom_events");
      return { name: r.name, properties: r.properties, receivedAt: r.received_at };
    });
  }

  async hasEvent(companyId: string, subscriberId: string, name: string, since: Date | null): Promise<boolean> {
    const query = this.knex("custom_events").where({ company_id: companyId, subscriber_id: subscriberId, name });
    if (since) query.where({ historical: false }).andWhere("received_at", ">=", toDbDate(since));
    return (await query.first(this.knex.raw("1 as found"))) !== undefined;
  }

  async lastSequenceSend(companyId: string, subscriberId: string, sequenceId: string, since: Date): Promise<{ id: string; sentAt: Date } | null> {
    const row: unknown = await this.knex("email_sends")
      .where({ company_id: companyId, subscriber_id: subscriberId, automation_id: sequenceId, email_type: "sequence", is_test: false })
      .andWhere("sent_at", ">=", toDbDate(since))
      .orderBy("sent_at", "desc")
      .first("id", "sent_at");
    if (row === undefined) return null;
    const r = decodeRow(t.type({ id: t.string, sent_at: DbDate }), row, "email_sends");
    return { id: r.id, sentAt: r.sent_at };
  }

  async clickedUrls(companyId: string, subscriberId: string, scope: ClickScope, limit: number): Promise<string[]> {
    const query = this.knex("email_events as e")
      .join("email_sends as s", "s.id", "e.email_send_id")
      .where({
        "e.company_id": companyId,
        "e.event_type": "click",
        "e.machine": false,
        "s.company_id": companyId,
        "s.subscriber_id": subscriberId,
        "s.is_test": false,
      })
      .whereNotNull("e.url");
    if (scope.kind === "sequence") query.where({ "s.automation_id": scope.sequenceId }).andWhere("s.sent_at", ">=", toDbDate(scope.since));
    if (scope.kind === "send") query.where({ "s.id": scope.sendId });
    const rows: Array<{ url: string }> = await query.orderBy("e.event_time", "desc").limit(limit).select("e.url");
    return rows.map((row) => row.url);
  }

  async waiting(companyId: string, subscriberId: string): Promise<Enrollment[]> {
    const rows = await this.knex("sequence_enrollments").where({ company_id: companyId, subscriber_id: subscriberId, status: "waiting" });
    return rows.map(toEnrollment);
  }

  async wake(enrollment: Enrollment, nodeId: string, now: Date): Promise<boolean> {
    const woken = await this.knex("sequence_enrollments")
      .where({ id: enrollment.id, company_id: enrollment.companyId, status: "waiting", current_node_id: nodeId })
      .andWhere("due_at", ">", toDbDate(now))
      .update({ due_at: toDbDate(now) });
    return woken === 1;
  }
}
