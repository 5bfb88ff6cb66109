import * as t from "io-ts";
import type { Knex } from "knex";
import type { ContactEventRecord, SequenceActivityRepository } from "../../../core/sequences/activity-ports.js";
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
