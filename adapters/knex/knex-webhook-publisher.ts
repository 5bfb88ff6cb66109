import type { Knex } from "knex";
import type { Clock } from "../../core/ports/clock.js";
import type { IdGenerator } from "../../core/ports/id-generator.js";
import { chunksOf } from "../../core/shared/chunks.js";
import { DELIVER_WEBHOOK_JOB, DELIVERIES_PER_JOB, webhookDeliveryJob } from "../../core/webhooks/delivery-job.js";
import { webhookEventBody, type WebhookDelivery, type WebhookEvent, type WebhookEventType } from "../../core/webhooks/model.js";
import type { WebhookPublisher } from "../../core/webhooks/ports.js";
import { announceJobs, newJobRow } from "./knex-job-queue.js";
import { deliveryColumns } from "./repositories/webhook-repository.js";

interface Subscriber {
  readonly id: string;
  readonly events: ReadonlySet<string>;
}

/** Events, or how to make them once it is known that some webhook wants one of `wanted` (no work for a company without webhooks). */
export type EventSource = readonly WebhookEvent[] | ((wanted: ReadonlySet<WebhookEventType>) => Promise<readonly WebhookEvent[]> | readonly WebhookEvent[]);

/** Rows inserted per statement (SQLite allows 32,766 bound values; a delivery row has 17). */
const ROWS_PER_INSERT = 500;

/**
 * The WebhookPublisher on the database: each event becomes a delivery row per enabled webhook of
 * the company that subscribed to its type, and each webhook's deliveries of a publish are queued
 * in jobs of DELIVERIES_PER_JOB. `publishIn` writes them in the caller's transaction (a send's
 * status change, a contact's save), so the event exists exactly when the change does; the caller
 * announces the jobs once it has committed (`announce`). A company without webhooks costs one
 * indexed lookup, made once per transaction.
 */
export class KnexWebhookPublisher implements WebhookPublisher {
  /** Webhooks looked up in a transaction, per company: a group commit publishes many events in one. */
  private readonly seen = new WeakMap<object, Map<string, readonly Subscriber[]>>();

  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async publish(companyId: string, events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    const queued = await this.knex.transaction((trx) => this.publishIn(trx, companyId, events));
    await this.announce(queued);
  }

  /** Wakes workers for the deliveries queued by `publishIn`, once its transaction has committed. */
  async announce(queued: number): Promise<void> {
    if (queued > 0) await announceJobs(this.knex, [DELIVER_WEBHOOK_JOB]);
  }

  /** Queues the deliveries of the events inside `db`'s transaction; resolves to how many. */
  async publishIn(db: Knex.Transaction, companyId: string, source: EventSource): Promise<number> {
    const subscribers = await this.subscribersOf(db, companyId);
    if (subscribers.length === 0) return 0;
    const events = typeof source === "function" ? await source(await this.wanted(db, companyId)) : source;
    const now = this.clock.now();
    // An event's body is built once, whichever webhooks it goes to.
    const bodies = events.map(webhookEventBody);
    const deliveries: ReturnType<typeof deliveryColumns>[] = [];
    const jobs: ReturnType<typeof newJobRow>[] = [];
    for (const subscriber of subscribers) {
      const ids: string[] = [];
      for (const [index, event] of events.entries()) {
        if (!subscriber.events.has(event.type)) continue;
        const delivery: WebhookDelivery = {
          id: this.ids.next("whd"),
          companyId,
          webhookId: subscriber.id,
          eventId: event.id,
          eventType: event.type,
          body: bodies[index]!,
          status: "pending",
          attempts: 0,
          responseCode: null,
          error: null,
          durationMs: null,
          nextAttemptAt: now,
          lastAttemptAt: null,
          deliveredAt: null,
          replayOf: null,
          createdAt: now,
        };
        deliveries.push(deliveryColumns(delivery, now));
        ids.push(delivery.id);
      }
      for (const group of chunksOf(ids, DELIVERIES_PER_JOB)) jobs.push(newJobRow(webhookDeliveryJob(companyId, group, 1, now), this.ids.next("job"), now));
    }
    for (const rows of chunksOf(deliveries, ROWS_PER_INSERT)) await db("webhook_deliveries").insert(rows);
    for (const rows of chunksOf(jobs, ROWS_PER_INSERT)) await db("jobs").insert(rows);
    return deliveries.length;
  }

  /** The event types some enabled webhook of the company wants (memoized per transaction, like publishIn's lookup). */
  async wanted(db: Knex.Transaction, companyId: string): Promise<ReadonlySet<WebhookEventType>> {
    const wanted = new Set<WebhookEventType>();
    for (const subscriber of await this.subscribersOf(db, companyId)) for (const type of subscriber.events) wanted.add(type as WebhookEventType);
    return wanted;
  }

  private async subscribersOf(db: Knex.Transaction, companyId: string): Promise<readonly Subscriber[]> {
    let companies = this.seen.get(db);
    const known = companies?.get(companyId);
    if (known) return known;
    const rows: Array<{ id: string; events: unknown }> = await db("webhooks").where({ company_id: companyId, status: "enabled" }).select("id", "events");
    const subscribers = rows.map((row) => ({
      id: row.id,
      events: new Set<string>(typeof row.events === "string" ? (JSON.parse(row.events) as string[]) : (row.events as string[])),
    }));
    if (!companies) this.seen.set(db, (companies = new Map()));
    companies.set(companyId, subscribers);
    return subscribers;
  }
}
