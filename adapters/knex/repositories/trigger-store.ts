import type { Knex } from "knex";
import { RUNNING_STATUSES } from "../../../core/sequences/enrollment.js";
import type { Sequence } from "../../../core/sequences/model.js";
import type { TriggerStore } from "../../../core/sequences/trigger-ports.js";
import { toDbDate } from "../row-codecs.js";
import { toSequence } from "./sequence-repository.js";

/**
 * The queries of triggers and enrollment rules. A frequency count reads the custom_events index
 * (subscriber_id, name, occurred_at); inactivity reads each candidate's events by that index and
 * its sends by email_sends_contact.
 */
export class KnexTriggerStore implements TriggerStore {
  constructor(private readonly knex: Knex) {}

  async countEvents(companyId: string, subscriberId: string, eventName: string, since: Date): Promise<number> {
    const row = await this.knex("custom_events")
      .where({ subscriber_id: subscriberId, name: eventName, company_id: companyId })
      .andWhere("occurred_at", ">=", toDbDate(since))
      .count({ n: "*" })
      .first();
    return Number(row?.n ?? 0);
  }

  async enteredSince(companyId: string, sequenceId: string, subscriberId: string, since: Date): Promise<boolean> {
    const row = await this.knex("sequence_enrollments")
      .where({ company_id: companyId, sequence_id: sequenceId, subscriber_id: subscriberId })
      .andWhere("started_at", ">=", toDbDate(since))
      .first("id");
    return row !== undefined;
  }

  async cancelEverywhere(companyId: string, subscriberId: string, change: { readonly reason: string; readonly at: Date }): Promise<number> {
    const at = toDbDate(change.at);
    return this.knex("sequence_enrollments")
      .where({ company_id: companyId, subscriber_id: subscriberId })
      .whereIn("status", RUNNING_STATUSES)
      .update({
        status: "cancelled",
        due_at: null,
        wait_until: null,
        failed_reason: change.reason,
        finished_at: at,
        updated_at: at,
        step_count: this.knex.raw("step_count + 1"),
        // Only an unlimited sequence lets the contact in again (see keepsEntryKey).
        entry_key: this.knex.raw(
          "case when (select enrollment_mode from sequences where sequences.id = sequence_enrollments.sequence_id) = 'unlimited' then null else entry_key end",
        ),
      });
  }

  async listIdsOf(companyId: string, subscriberId: string): Promise<string[]> {
    return this.knex("list_memberships").where({ company_id: companyId, subscriber_id: subscriberId }).whereNull("unsubscribed_at").pluck("list_id");
  }

  async activeWithTrigger(trigger: string): Promise<Sequence[]> {
    const rows = await this.knex("sequences").where({ trigger, status: "active" }).orderBy("created_at").orderBy("id");
    return rows.map(toSequence);
  }

  async inactiveContacts(
    sequence: Sequence,
    options: { readonly inactiveSince: Date; readonly after: string | null; readonly limit: number },
  ): Promise<string[]> {
    const knex = this.knex;
    // No activity after `moment`: no custom event, and no person's first open or click of a send.
    const quietAfter = (query: Knex.QueryBuilder, moment: string | Knex.Raw) =>
      query
        .whereNotExists((events) =>
          events.select(knex.raw("1")).from("custom_events as c").whereRaw("c.subscriber_id = s.id").andWhere("c.occurred_at", ">", moment),
        )
        .whereNotExists((sends) =>
          sends
            .select(knex.raw("1"))
            .from("email_sends as m")
            .where("m.company_id", sequence.companyId)
            .whereRaw("m.subscriber_id = s.id")
            .andWhere((engaged) => engaged.where("m.first_human_opened_at", ">", moment).orWhere("m.first_human_clicked_at", ">", moment)),
        );
    const query = knex("subscribers as s")
      .where({ "s.company_id": sequence.companyId, "s.status": "active" })
      .andWhere("s.created_at", "<=", toDbDate(options.inactiveSince))
      .modify((q) => quietAfter(q, options.inactiveSince.toISOString()))
      // Not entered since its last activity: a run it has not been active after holds it back.
      .whereNotExists((entered) =>
        entered
          .select(knex.raw("1"))
          .from("sequence_enrollments as e")
          .where("e.sequence_id", sequence.id)
          .whereRaw("e.subscriber_id = s.id")
          .modify((q) => quietAfter(q, knex.raw("??", ["e.started_at"]))),
      );
    if (options.after !== null) query.andWhere("s.id", ">", options.after);
    const rows: Array<{ id: string }> = await query.orderBy("s.id").limit(options.limit).select("s.id");
    return rows.map((row) => row.id);
  }
}
