import { setTimeout as sleep } from "node:timers/promises";
import type { Knex } from "knex";
import type { RetentionStore } from "../../core/retention/ports.js";
import { toDbDate } from "./row-codecs.js";

/** Rows per statement: small enough that neither dialect holds its write lock for long. */
export const RETENTION_BATCH = 1_000;
/** The pause between batches, so requests and jobs get the database in between. */
const PAUSE_MS = 10;

/** The kinds of `email_events` (0006-email-pipeline), listed so each company's sweep walks its index. */
const EMAIL_EVENT_TYPES = ["send", "delivery", "bounce", "complaint", "open", "click", "unsubscribe", "delivery_delay", "transport_failure", "reply"];

/**
 * The retention sweep over SQLite and Postgres: every statement touches at most one batch of
 * rows found through an index (0017-retention-indexes, or the events' per-company index), and
 * the predicates on partial indexes are written as literals so SQLite can use them.
 */
export class KnexRetentionSweeper implements RetentionStore {
  constructor(private readonly knex: Knex) {}

  deleteCompletedJobs(completedBefore: Date): Promise<number> {
    return this.inBatches(() =>
      this.knex("jobs")
        .whereRaw("id in (select id from jobs where status = 'completed' and completed_at < ? limit ?)", [toDbDate(completedBefore), RETENTION_BATCH])
        .delete(),
    );
  }

  deleteDeadJobs(diedBefore: Date): Promise<number> {
    return this.inBatches(() =>
      this.knex("jobs")
        .whereRaw("id in (select id from jobs where status = 'dead' and updated_at < ? limit ?)", [toDbDate(diedBefore), RETENTION_BATCH])
        .delete(),
    );
  }

  deleteExpiredIdempotencyKeys(now: Date): Promise<number> {
    return this.inBatches(() =>
      this.knex("idempotency_keys")
        .whereRaw("(company_id, idempotency_key) in (select company_id, idempotency_key from idempotency_keys where expires_at < ? limit ?)", [
          toDbDate(now),
          RETENTION_BATCH,
        ])
        .delete(),
    );
  }

  blankEmailBodies(createdBefore: Date): Promise<number> {
    // Pending sends are still to be delivered from their body.
    return this.inBatches(() =>
      this.knex("email_send_contents")
        .whereRaw(
          "email_send_id in (select c.email_send_id from email_send_contents c join email_sends s on s.id = c.email_send_id where c.created_at < ? and s.status <> 'pending' limit ?)",
          [toDbDate(createdBefore), RETENTION_BATCH],
        )
        .delete(),
    );
  }

  async deleteDeliveryEvents(occurredBefore: Date): Promise<number> {
    const before = toDbDate(occurredBefore);
    let removed = 0;
    for (const companyId of await this.knex("companies").pluck("id")) {
      const old = this.knex("email_events")
        .where("company_id", companyId)
        .whereIn("event_type", EMAIL_EVENT_TYPES)
        .where("event_time", "<", before)
        .limit(RETENTION_BATCH)
        .select("id");
      removed += await this.inBatches(() => this.knex("email_events").whereIn("id", old).delete());
    }
    // Outbound webhooks' delivery history goes with the events it carried (pending ones are still to be made).
    for (const webhookId of await this.knex("webhooks").pluck("id")) {
      const settled = this.knex("webhook_deliveries")
        .where("webhook_id", webhookId)
        .where("created_at", "<", before)
        .whereNot("status", "pending")
        .limit(RETENTION_BATCH)
        .select("id");
      removed += await this.inBatches(() => this.knex("webhook_deliveries").whereIn("id", settled).delete());
    }
    return removed;
  }

  /** Runs one batch statement until a batch comes back short; the rows it touched, in all. */
  private async inBatches(batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const touched = await batch();
      total += touched;
      if (touched < RETENTION_BATCH) return total;
      await sleep(PAUSE_MS);
    }
  }
}
