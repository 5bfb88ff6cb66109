import * as t from "io-ts";
import type { Knex } from "knex";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import type { JobRequest } from "../../../core/ports/job-queue.js";
import type { Clock } from "../../../core/ports/clock.js";
import {
  DELIVERY_STATUSES,
  healthAfter,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_STATUSES,
  type Webhook,
  type WebhookDelivery,
  type WebhookSigningSecret,
} from "../../../core/webhooks/model.js";
import type { DeliveriesOfWebhook, RecordedAttempt, WebhookChanges, WebhookRepository, WebhookWithSecrets } from "../../../core/webhooks/ports.js";
import { isPostgres } from "../connection.js";
import { GroupCommit } from "../group-commit.js";
import { announceJobs, newJobRow } from "../knex-job-queue.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const EventType = t.keyof(Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, null])) as Record<(typeof WEBHOOK_EVENT_TYPES)[number], null>);

const WebhookRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  url: t.string,
  status: t.keyof({ enabled: null, disabled: null } satisfies Record<(typeof WEBHOOK_STATUSES)[number], null>),
  // Unknown names (a type retired later) are dropped rather than failing the row.
  events: dbJson(t.array(t.string)),
  consecutive_failures: DbInteger,
  circuit_opened_at: DbNullableDate,
  circuit_open_until: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

const SecretRow = t.type({
  id: t.string,
  webhook_id: t.string,
  prefix: t.string,
  sealed_secret: t.string,
  created_at: DbDate,
  expires_at: DbNullableDate,
});

const DeliveryRow = t.type({
  id: t.string,
  company_id: t.string,
  webhook_id: t.string,
  event_id: t.string,
  event_type: EventType,
  body: t.string,
  status: t.keyof({ pending: null, succeeded: null, failed: null } satisfies Record<(typeof DELIVERY_STATUSES)[number], null>),
  attempts: DbInteger,
  response_code: t.union([DbInteger, t.null]),
  error: t.union([t.string, t.null]),
  duration_ms: t.union([DbInteger, t.null]),
  next_attempt_at: DbNullableDate,
  last_attempt_at: DbNullableDate,
  delivered_at: DbNullableDate,
  replay_of: t.union([t.string, t.null]),
  created_at: DbDate,
});

const isEventType = (name: string): name is (typeof WEBHOOK_EVENT_TYPES)[number] => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);

function toWebhook(row: unknown): Webhook {
  const r = decodeRow(WebhookRow, row, "webhooks");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    url: r.url,
    status: r.status,
    events: r.events.filter(isEventType),
    consecutiveFailures: r.consecutive_failures,
    circuitOpenedAt: r.circuit_opened_at,
    circuitOpenUntil: r.circuit_open_until,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toSecret(row: unknown): WebhookSigningSecret {
  const r = decodeRow(SecretRow, row, "webhook_signing_secrets");
  return { id: r.id, webhookId: r.webhook_id, prefix: r.prefix, sealedSecret: r.sealed_secret, createdAt: r.created_at, expiresAt: r.expires_at };
}

function toDelivery(row: unknown): WebhookDelivery {
  const r = decodeRow(DeliveryRow, row, "webhook_deliveries");
  return {
    id: r.id,
    companyId: r.company_id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    eventType: r.event_type,
    body: r.body,
    status: r.status,
    attempts: r.attempts,
    responseCode: r.response_code,
    error: r.error,
    durationMs: r.duration_ms,
    nextAttemptAt: r.next_attempt_at,
    lastAttemptAt: r.last_attempt_at,
    deliveredAt: r.delivered_at,
    replayOf: r.replay_of,
    createdAt: r.created_at,
  };
}

/** The columns of a webhook and of a secret besides the keys, read joined to a delivery. */
const WEBHOOK_FIELDS = [
  "name",
  "url",
  "status",
  "events",
  "consecutive_failures",
  "circuit_opened_at",
  "circuit_open_until",
  "created_at",
  "updated_at",
] as const;
const SECRET_FIELDS = ["id", "prefix", "sealed_secret", "created_at", "expires_at"] as const;

/** What an attempt changes of a delivery. */
function stateColumns(delivery: WebhookDelivery, updatedAt: Date) {
  return {
    status: delivery.status,
    attempts: delivery.attempts,
    response_code: delivery.responseCode,
    error: delivery.error,
    duration_ms: delivery.durationMs,
    next_attempt_at: toDbDate(delivery.nextAttemptAt),
    last_attempt_at: toDbDate(delivery.lastAttemptAt),
    delivered_at: toDbDate(delivery.deliveredAt),
    updated_at: toDbDate(updatedAt),
  };
}

/** A delivery as stored. */
export function deliveryColumns(delivery: WebhookDelivery, updatedAt: Date) {
  return {
    id: delivery.id,
    company_id: delivery.companyId,
    webhook_id: delivery.webhookId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    body: delivery.body,
    replay_of: delivery.replayOf,
    created_at: toDbDate(delivery.createdAt),
    ...stateColumns(delivery, updatedAt),
  };
}

/** `webhooks`, `webhook_signing_secrets` and `webhook_deliveries`; jobs are queued in the same transactions. */
export class KnexWebhookRepository implements WebhookRepository {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  private readonly attemptRecords = new GroupCommit<RecordedAttempt, WebhookDelivery | null>((attempts) => this.writeAttempts(attempts), 1, 200);

  private async withSecrets(db: Knex | Knex.Transaction, webhooks: Webhook[]): Promise<WebhookWithSecrets[]> {
    if (webhooks.length === 0) return [];
    const rows = await db("webhook_signing_secrets")
      .whereIn(
        "webhook_id",
        webhooks.map((webhook) => webhook.id),
      )
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ]);
    const secrets = rows.map(toSecret);
    return webhooks.map((webhook) => ({ webhook, secrets: secrets.filter((secret) => secret.webhookId === webhook.id) }));
  }

  async list(companyId: string): Promise<WebhookWithSecrets[]> {
    const rows = await this.knex("webhooks")
      .where({ company_id: companyId })
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ]);
    return this.withSecrets(this.knex, rows.map(toWebhook));
  }

  async find(companyId: string, webhookId: string, db: Knex | Knex.Transaction = this.knex): Promise<WebhookWithSecrets | null> {
    const row = await db("webhooks").where({ company_id: companyId, id: webhookId }).first();
    return row ? ((await this.withSecrets(db, [toWebhook(row)]))[0] ?? null) : null;
  }

  async insert(webhook: Webhook, secret: WebhookSigningSecret): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("webhooks").insert({
        id: webhook.id,
        company_id: webhook.companyId,
        name: webhook.name,
        url: webhook.url,
        status: webhook.status,
        events: JSON.stringify(webhook.events),
        consecutive_failures: webhook.consecutiveFailures,
        circuit_opened_at: toDbDate(webhook.circuitOpenedAt),
        circuit_open_until: toDbDate(webhook.circuitOpenUntil),
        created_at: toDbDate(webhook.createdAt),
        updated_at: toDbDate(webhook.updatedAt),
      });
      await this.insertSecret(trx, webhook.companyId, secret);
    });
  }

  private async insertSecret(db: Knex | Knex.Transaction, companyId: string, secret: WebhookSigningSecret): Promise<void> {
    await db("webhook_signing_secrets").insert({
      id: secret.id,
      company_id: companyId,
      webhook_id: secret.webhookId,
      prefix: secret.prefix,
      sealed_secret: secret.sealedSecret,
      created_at: toDbDate(secret.createdAt),
      expires_at: toDbDate(secret.expiresAt),
    });
  }

  async update(companyId: string, webhookId: string, changes: WebhookChanges, at: Date): Promise<WebhookWithSecrets | null> {
    const updated = await this.knex("webhooks")
      .where({ company_id: companyId, id: webhookId })
      .update({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.events !== undefined ? { events: JSON.stringify(changes.events) } : {}),
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        // Turning a webhook on, or pointing it elsewhere, starts its health afresh.
        ...(changes.status === "enabled" || changes.url !== undefined ? { consecutive_failures: 0, circuit_opened_at: null, circuit_open_until: null } : {}),
        updated_at: toDbDate(at),
      });
    return updated > 0 ? this.find(companyId, webhookId) : null;
  }

  async delete(companyId: string, webhookId: string): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      // Explicitly, as SQLite connections may not enforce the cascades.
      await trx("webhook_deliveries").where({ company_id: companyId, webhook_id: webhookId }).delete();
      await trx("webhook_signing_secrets").where({ company_id: companyId, webhook_id: webhookId }).delete();
      return (await trx("webhooks").where({ company_id: companyId, id: webhookId }).delete()) > 0;
    });
  }

  async rotateSecret(companyId: string, webhookId: string, secret: WebhookSigningSecret, expireAt: Date): Promise<WebhookWithSecrets | null> {
    return this.knex.transaction(async (trx) => {
      const exists = await trx("webhooks").where({ company_id: companyId, id: webhookId }).first("id");
      if (!exists) return null;
      const secrets = trx("webhook_signing_secrets").where({ company_id: companyId, webhook_id: webhookId });
      await secrets.clone().whereNotNull("expires_at").where("expires_at", "<=", secret.createdAt.toISOString()).delete();
      // A secret already on its way out keeps the earlier of its end and the new one.
      await secrets
        .clone()
        .where((current) => current.whereNull("expires_at").orWhere("expires_at", ">", expireAt.toISOString()))
        .update({ expires_at: expireAt.toISOString() });
      await this.insertSecret(trx, companyId, secret);
      return this.find(companyId, webhookId, trx);
    });
  }

  async listDeliveries(companyId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.knex("webhook_deliveries")
      .where({ company_id: companyId, webhook_id: webhookId })
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(limit);
    return rows.map(toDelivery);
  }

  async findDelivery(companyId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const row = await this.knex("webhook_deliveries").where({ company_id: companyId, id: deliveryId }).first();
    return row ? toDelivery(row) : null;
  }

  async findForAttempts(companyId: string, deliveryIds: readonly string[]): Promise<DeliveriesOfWebhook[]> {
    if (deliveryIds.length === 0) return [];
    const rows: Array<Record<string, unknown>> = await this.knex("webhook_deliveries as d")
      .join("webhooks as w", "w.id", "d.webhook_id")
      .leftJoin("webhook_signing_secrets as s", "s.webhook_id", "w.id")
      .where({ "d.company_id": companyId })
      .whereIn("d.id", deliveryIds)
      .select("d.*", ...WEBHOOK_FIELDS.map((field) => `w.${field} as w_${field}`), ...SECRET_FIELDS.map((field) => `s.${field} as s_${field}`));
    const prefixed = (row: Record<string, unknown>, prefix: string, fields: readonly string[]) =>
      Object.fromEntries(fields.map((field) => [field, row[`${prefix}${field}`]]));
    // One row per delivery and secret: each webhook and delivery is read from its first row.
    const byWebhook = new Map<string, { found: WebhookWithSecrets; secretIds: Set<string>; deliveries: Map<string, WebhookDelivery> }>();
    for (const row of rows) {
      const webhookId = row.webhook_id as string;
      let group = byWebhook.get(webhookId);
      if (!group) {
        const webhook = toWebhook({ ...prefixed(row, "w_", WEBHOOK_FIELDS), id: webhookId, company_id: row.company_id });
        group = { found: { webhook, secrets: [] }, secretIds: new Set(), deliveries: new Map() };
        byWebhook.set(webhookId, group);
      }
      if (row.s_id !== null && row.s_id !== undefined && !group.secretIds.has(row.s_id as string)) {
        group.secretIds.add(row.s_id as string);
        (group.found.secrets as WebhookSigningSecret[]).push(toSecret({ ...prefixed(row, "s_", SECRET_FIELDS), webhook_id: webhookId }));
      }
      if (!group.deliveries.has(row.id as string)) group.deliveries.set(row.id as string, toDelivery(row));
    }
    const order = new Map(deliveryIds.map((id, index) => [id, index]));
    return [...byWebhook.values()].map(({ found, deliveries }) => ({
      found: { webhook: found.webhook, secrets: [...found.secrets].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id)) },
      deliveries: [...deliveries.values()].sort((a, b) => order.get(a.id)! - order.get(b.id)!),
    }));
  }

  async insertDelivery(delivery: WebhookDelivery, job: JobRequest | null): Promise<string | null> {
    const jobId = job ? this.ids.next("job") : null;
    await this.knex.transaction(async (trx) => {
      await trx("webhook_deliveries").insert(deliveryColumns(delivery, delivery.createdAt));
      if (job && jobId) await trx("jobs").insert(newJobRow(job, jobId, this.clock.now()));
    });
    if (job) await announceJobs(this.knex, [job.type]);
    return jobId;
  }

  recordAttempts(attempts: readonly RecordedAttempt[]): Promise<Array<WebhookDelivery | null>> {
    return this.attemptRecords.submit(attempts);
  }

  /** The attempts of jobs running side by side, in one transaction (see GroupCommit). */
  private async writeAttempts(attempts: readonly RecordedAttempt[]): Promise<Array<WebhookDelivery | null>> {
    const plain = attempts.filter(isPlainSuccess);
    const retries: JobRequest[] = [];
    const write = async (db: Knex | Knex.Transaction): Promise<Array<WebhookDelivery | null>> => {
      const settled = await this.settleSuccesses(db, plain);
      const outcomes: Array<WebhookDelivery | null> = [];
      for (const attempt of attempts) {
        const { delivery, result } = attempt;
        if (isPlainSuccess(attempt)) {
          outcomes.push(settled.has(delivery.id) ? afterAttempt(attempt) : null);
          continue;
        }
        if (!(await this.settle(db, attempt))) {
          outcomes.push(null);
          continue;
        }
        if (result.ok && !result.healthyBefore) await this.recordSuccess(db, delivery.companyId, delivery.webhookId);
        // A failure is never written outside a transaction (see oneStatement below).
        if (result.made && !result.ok) await this.recordFailure(db as Knex.Transaction, delivery.companyId, delivery.webhookId, result.at);
        if (result.retry) {
          await db("jobs").insert(newJobRow(result.retry.job, this.ids.next("job"), result.at));
          retries.push(result.retry.job);
        }
        outcomes.push(afterAttempt(attempt));
      }
      return outcomes;
    };
    // Successes of one company's deliveries on the same attempt are one statement: no transaction for them alone.
    const oneStatement = plain.length === attempts.length && new Set(plain.map(successGroup)).size === 1;
    const recorded = oneStatement ? await write(this.knex) : await this.knex.transaction(write);
    if (retries.length > 0)
      await announceJobs(
        this.knex,
        retries.map((job) => job.type),
      );
    return recorded;
  }

  /**
   * Records successes that change nothing but their deliveries, one UPDATE per company and
   * attempt: each row's own code, duration and time are chosen by its ID. The IDs it settled
   * (a delivery no longer as the attempt found it is not).
   */
  private async settleSuccesses(db: Knex | Knex.Transaction, successes: readonly RecordedAttempt[]): Promise<Set<string>> {
    const settled = new Set<string>();
    const groups = new Map<string, RecordedAttempt[]>();
    for (const success of successes) {
      const group = groups.get(successGroup(success));
      if (group) group.push(success);
      else groups.set(successGroup(success), [success]);
    }
    const time = isPostgres(db) ? "cast(? as timestamptz)" : "?";
    for (const group of groups.values()) {
      const [{ delivery: first }] = group as [RecordedAttempt];
      const byRow = (param: string, value: (attempt: RecordedAttempt) => string | number | null) =>
        db.raw(
          `case id ${group.map(() => `when ? then ${param}`).join(" ")} end`,
          group.flatMap((attempt) => [attempt.delivery.id, value(attempt)]),
        );
      const rows: Array<{ id: string }> = await db("webhook_deliveries")
        .where({ company_id: first.companyId, status: "pending", attempts: first.attempts })
        .whereIn(
          "id",
          group.map((attempt) => attempt.delivery.id),
        )
        .update(
          {
            status: "succeeded",
            attempts: first.attempts + 1,
            response_code: byRow("cast(? as integer)", (attempt) => attempt.result.responseCode),
            error: null,
            duration_ms: byRow("cast(? as integer)", (attempt) => attempt.result.durationMs),
            next_attempt_at: null,
            last_attempt_at: byRow(time, (attempt) => toDbDate(attempt.result.at)),
            delivered_at: byRow(time, (attempt) => toDbDate(attempt.result.at)),
            updated_at: toDbDate(new Date(Math.max(...group.map((attempt) => attempt.result.at.getTime())))),
          },
          ["id"],
        );
      for (const row of rows) settled.add(row.id);
    }
    return settled;
  }

  /** Writes the attempt over the state it started from: a concurrent run of the same attempt records nothing. */
  private async settle(db: Knex | Knex.Transaction, attempt: RecordedAttempt): Promise<boolean> {
    const { delivery, result } = attempt;
    const changed = await db("webhook_deliveries")
      .where({ company_id: delivery.companyId, id: delivery.id, status: "pending", attempts: delivery.attempts })
      .update(stateColumns(afterAttempt(attempt), result.at));
    return changed > 0;
  }

  /** A success resets a webhook that was failing. */
  private async recordSuccess(trx: Knex | Knex.Transaction, companyId: string, webhookId: string): Promise<void> {
    await trx("webhooks")
      .where({ company_id: companyId, id: webhookId })
      .where((failing) => failing.where("consecutive_failures", ">", 0).orWhereNotNull("circuit_open_until"))
      .update({ consecutive_failures: 0, circuit_opened_at: null, circuit_open_until: null });
  }

  /** The webhook's failure count and circuit after a failed attempt (healthAfter), under its row lock. */
  private async recordFailure(trx: Knex.Transaction, companyId: string, webhookId: string, at: Date): Promise<void> {
    const query = trx("webhooks").where({ company_id: companyId, id: webhookId });
    if (isPostgres(trx)) query.forUpdate();
    const row = await query.first();
    if (!row) return;
    const health = healthAfter(toWebhook(row), { ok: false }, at);
    await trx("webhooks")
      .where({ id: webhookId })
      .update({
        consecutive_failures: health.consecutiveFailures,
        circuit_opened_at: toDbDate(health.circuitOpenedAt),
        circuit_open_until: toDbDate(health.circuitOpenUntil),
      });
  }

  async postpone(companyId: string, deliveryIds: readonly string[], at: Date, job: JobRequest): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const moved = await trx("webhook_deliveries")
        .where({ company_id: companyId, status: "pending" })
        .whereIn("id", deliveryIds)
        .update({ next_attempt_at: toDbDate(at), updated_at: toDbDate(this.clock.now()) });
      if (moved > 0) await trx("jobs").insert(newJobRow(job, this.ids.next("job"), this.clock.now()));
    });
    await announceJobs(this.knex, [job.type]);
  }
}

/** A success that changes its delivery only: the webhook was healthy, so there is nothing to reset. */
const isPlainSuccess = ({ result }: RecordedAttempt): boolean => result.ok && result.healthyBefore;

/** Plain successes recorded by one statement: the same company and the same attempts before. */
const successGroup = ({ delivery }: RecordedAttempt): string => `${delivery.companyId} ${delivery.attempts}`;

/** A delivery after an attempt. */
function afterAttempt({ delivery, result }: RecordedAttempt): WebhookDelivery {
  return {
    ...delivery,
    status: result.ok ? "succeeded" : result.retry ? "pending" : "failed",
    attempts: delivery.attempts + (result.made ? 1 : 0),
    responseCode: result.responseCode,
    error: result.error,
    durationMs: result.made ? result.durationMs : null,
    nextAttemptAt: result.retry?.at ?? null,
    lastAttemptAt: result.made ? result.at : delivery.lastAttemptAt,
    deliveredAt: result.ok ? result.at : null,
  };
}
