import type { Knex } from "knex";
import type { EventInterest, EventInterestRepository } from "../../../core/sequences/event-interest.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";

/** SQLite answers EXISTS with 0/1, Postgres with a boolean. (knex puts the subquery in parentheses: `exists ?`, as SQLite refuses `exists((...))`.) */
const yes = (value: unknown): boolean => value === true || value === 1 || value === "1";

/** What an event name means to a company's sequences, whoever the contact. */
interface CompanyInterest {
  readonly startsSequences: boolean;
  readonly reachesGoals: boolean;
  /** Some run of the company waits for an event: only then is the contact's own wait asked about. */
  readonly anyWaiting: boolean;
}

/**
 * The three existence checks of a contact's event, as one statement over indexed columns. What
 * concerns the company (sequences listening, goals, whether any run waits) is kept in SQLite's read
 * cache until a sequence, goal or run changes; then the contact's own wait is asked only when some
 * run of the company waits.
 */
export class KnexEventInterestRepository implements EventInterestRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
  }

  async of(companyId: string, subscriberId: string, eventName: string, triggers: readonly string[]): Promise<EventInterest> {
    let contactWaits: boolean | undefined;
    const company = await this.cache.read(
      `event-interest:${companyId}:${eventName}:${triggers.join(",")}`,
      ["sequences", "sequence_goals", "sequence_enrollments"],
      async () => {
        const read = await this.interest(companyId, subscriberId, eventName, triggers);
        contactWaits = read.contactWaits;
        return read.company;
      },
    );
    // Read with the company's part unless that came from the cache (Postgres always reads it: one statement).
    contactWaits ??= company.anyWaiting && (await this.exists(this.waiting(companyId).where({ subscriber_id: subscriberId })));
    return { startsSequences: company.startsSequences, reachesGoals: company.reachesGoals, wakesEnrollments: contactWaits };
  }

  private async interest(
    companyId: string,
    subscriberId: string,
    eventName: string,
    triggers: readonly string[],
  ): Promise<{ company: CompanyInterest; contactWaits: boolean }> {
    const knex = this.knex;
    const listening = knex("sequences")
      .select(knex.raw("1"))
      .where({ company_id: companyId, status: "active", enrollment_paused: false })
      .whereIn("trigger", [...triggers]);
    const goals = knex("sequence_goals")
      .select(knex.raw("1"))
      .where({ company_id: companyId, trigger_event_name: eventName, trigger_type: "event", is_active: true });
    const [row]: Array<{ starts: unknown; goals: unknown; waiting: unknown; waits: unknown }> = await knex.select(
      knex.raw("exists ? as starts", [listening]),
      knex.raw("exists ? as goals", [goals]),
      knex.raw("exists ? as waiting", [this.waiting(companyId)]),
      knex.raw("exists ? as waits", [this.waiting(companyId).where({ subscriber_id: subscriberId })]),
    );
    return {
      company: { startsSequences: yes(row!.starts), reachesGoals: yes(row!.goals), anyWaiting: yes(row!.waiting) },
      contactWaits: yes(row!.waits),
    };
  }

  /** A literal status, not a parameter: SQLite uses the partial index sequence_enrollments_waiting only for the same term. */
  private waiting(companyId: string) {
    return this.knex("sequence_enrollments").select(this.knex.raw("1")).where({ company_id: companyId }).whereRaw("status = 'waiting'");
  }

  private async exists(query: Knex.QueryBuilder): Promise<boolean> {
    const [row]: Array<{ found: unknown }> = await this.knex.select(this.knex.raw("exists ? as found", [query]));
    return yes(row!.found);
  }
}
