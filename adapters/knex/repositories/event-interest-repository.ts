import type { Knex } from "knex";
import type { EventInterest, EventInterestRepository } from "../../../core/sequences/event-interest.js";

/** SQLite answers EXISTS with 0/1, Postgres with a boolean. (knex puts the subquery in parentheses: `exists ?`, as SQLite refuses `exists((...))`.) */
const yes = (value: unknown): boolean => value === true || value === 1 || value === "1";

/** The three existence checks of a contact's event, as one statement over indexed columns. */
export class KnexEventInterestRepository implements EventInterestRepository {
  constructor(private readonly knex: Knex) {}

  async of(companyId: string, subscriberId: string, eventName: string, triggers: readonly string[]): Promise<EventInterest> {
    const knex = this.knex;
    const listening = knex("sequences")
      .select(knex.raw("1"))
      .where({ company_id: companyId, status: "active", enrollment_paused: false })
      .whereIn("trigger", [...triggers]);
    const waiting = knex("sequence_enrollments").select(knex.raw("1")).where({ company_id: companyId, subscriber_id: subscriberId, status: "waiting" });
    const goals = knex("sequence_goals")
      .select(knex.raw("1"))
      .where({ company_id: companyId, trigger_event_name: eventName, trigger_type: "event", is_active: true });
    const [row]: Array<{ starts: unknown; wakes: unknown; goals: unknown }> = await knex.select(
      knex.raw("exists ? as starts", [listening]),
      knex.raw("exists ? as wakes", [waiting]),
      knex.raw("exists ? as goals", [goals]),
    );
    return { startsSequences: yes(row!.starts), wakesEnrollments: yes(row!.wakes), reachesGoals: yes(row!.goals) };
  }
}
