import * as t from "io-ts";
import type { Knex } from "knex";
import { retryDelayMs } from "../../core/jobs/retry-delay.js";
import type { IdGenerator } from "../../core/ports/id-generator.js";
import type { Job, JobQueue, JobRequest, JobStore } from "../../core/ports/job-queue.js";
import type { Clock } from "../../core/ports/clock.js";
import { isPostgres } from "./connection.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "./row-codecs.js";
import { GroupCommit } from "./group-commit.js";
import { localJobSignals } from "./local-job-signals.js";

export const DEFAULT_MAX_ATTEMPTS = 10;
/** Postgres channel that wakes idle workers when a job is enqueued. */
export const JOBS_CHANNEL = "lifecycle_jobs";

const JobRow = t.type({
  id: t.string,
  type: t.string,
  payload: dbJson(t.record(t.string, t.unknown)),
  company_id: t.union([t.string, t.null]),
  status: t.keyof({ queued: null, running: null, completed: null, dead: null }),
  priority: DbInteger,
  run_at: DbDate,
  attempts: DbInteger,
  max_attempts: DbInteger,
  last_error: t.union([t.string, t.null]),
  singleton_key: t.union([t.string, t.null]),
  lease_owner: t.union([t.string, t.null]),
  lease_expires_at: DbNullableDate,
  created_at: DbDate,
  completed_at: DbNullableDate,
});

function toJob(row: unknown): Job {
  const r = decodeRow(JobRow, row, "jobs");
  return {
    id: r.id,
    type: r.type,
    payload: r.payload,
    companyId: r.company_id,
    status: r.status,
    priority: r.priority,
    runAt: r.run_at,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    lastError: r.last_error,
    singletonKey: r.singleton_key,
    leaseOwner: r.lease_owner,
    leaseExpiresAt: r.lease_expires_at,
    createdAt: r.created_at,
    completedAt: r.completed_at,
  };
}

const isUniqueViolation = (error: unknown): boolean => /unique|duplicate key/i.test(String((error as Error)?.message ?? error));

/**
 * The `jobs` table as a queue. Claims are one UPDATE ... RETURNING over the due jobs: on
 * Postgres the candidates are locked with FOR UPDATE SKIP LOCKED so concurrent workers never
 * take the same job; on SQLite the single writer makes the conditional update atomic.
 */
/**
 * A new job's row. Repositories that queue a job with rows of their own (a send and its
 * delivery) insert it in their transaction, so neither is ever written without the other.
 */
export function newJobRow(request: JobRequest, id: string, now: Date) {
  return {
    id,
    company_id: request.companyId ?? null,
    type: request.type,
    payload: JSON.stringify(request.payload ?? {}),
    status: "queued",
    priority: request.priority ?? 0,
    run_at: toDbDate(request.runAt ?? now),
    attempts: 0,
    max_attempts: request.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    singleton_key: request.singletonKey ?? null,
    created_at: toDbDate(now),
    updated_at: toDbDate(now),
  };
}

/** Wakes idle workers once new jobs are committed: Postgres NOTIFY, or this process's SQLite workers. */
export async function announceJobs(knex: Knex, types: readonly string[]): Promise<void> {
  if (!isPostgres(knex)) return localJobSignals.notify(knex);
  for (const type of new Set(types)) await knex.raw("select pg_notify(?, ?)", [JOBS_CHANNEL, type]);
}

interface Completion {
  readonly jobId: string;
  readonly owner: string;
  readonly at: Date;
}

/**
 * Settings of a Postgres claim, for its transaction only:
 * - the claim walks the claim-order index and stops after `limit` jobs. Right after a burst of
 *   enqueues the table's statistics still describe a nearly empty queue, and the planner would
 *   read every queued job in a bitmap scan and sort them (12-18 ms a claim with 20,000 queued,
 *   against 0.05 ms for the walk);
 * - it commits without waiting for the WAL flush. A crash can lose nothing but the claim itself,
 *   which lets the job run again, as a crash mid-job does anyway; whatever the job then commits
 *   durably (its completion, its own writes) flushes the WAL up to and with the claim.
 */
const POSTGRES_CLAIM_SETTINGS = "set local enable_bitmapscan = off; set local enable_sort = off; set local synchronous_commit = off;";

/**
 * `sql` with each `?` replaced by its value as a Postgres literal (numbers as they are). Strings
 * become escape strings with every `?` written as `\x3f`, so that knex, which turns each `?` of
 * a raw query into a placeholder, finds none inside them.
 */
function inlineLiterals(sql: string, values: ReadonlyArray<string | number | null>): string {
  const parts = sql.split("?");
  if (parts.length !== values.length + 1) throw new Error(`${values.length} values for ${parts.length - 1} placeholders`);
  const literal = (value: string | number | null): string => {
    if (value === null) return "null";
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new Error(`not a number for SQL: ${value}`);
      return String(value);
    }
    return `E'${value.replace(/\\/g, "\\\\").replace(/'/g, "''").replace(/\?/g, "\\x3f")}'`;
  };
  return parts.reduce((text, part, i) => text + literal(values[i - 1]!) + part);
}

/** Completions that arrive together (concurrent jobs finishing) share one transaction. */
const COMPLETION_TURNS = 1;

export class KnexJobQueue implements JobQueue, JobStore {
  private readonly completions = new GroupCommit<Completion, boolean>((items) => this.completeAll(items), COMPLETION_TURNS, 200);

  private readonly postgres: boolean;

  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {
    this.postgres = isPostgres(knex);
  }

  async enqueue(request: JobRequest): Promise<string> {
    const id = this.ids.next("job");
    const row = newJobRow(request, id, this.clock.now());
    // A singleton key may be taken, or freed between our insert and our look-up: a few rounds settle it.
    for (let round = 0; round < 5; round++) {
      try {
        await this.insertAndAnnounce(row);
        return id;
      } catch (error) {
        if (!request.singletonKey || !isUniqueViolation(error)) throw error;
        const existing = await this.knex("jobs").where({ singleton_key: request.singletonKey }).whereIn("status", ["queued", "running"]).first("id");
        if (existing) return existing.id as string;
      }
    }
    throw new Error(`could not enqueue singleton job ${request.singletonKey}`);
  }

  /** On Postgres the row and the NOTIFY that wakes workers go in one statement: one round trip, one commit. */
  private async insertAndAnnounce(row: ReturnType<typeof newJobRow>): Promise<void> {
    if (!this.postgres) {
      await this.knex("jobs").insert(row);
      return localJobSignals.notify(this.knex);
    }
    const insert = this.knex("jobs").insert(row).returning("type").toSQL();
    await this.knex.raw(`with queued as (${insert.sql}) select pg_notify(?, type) from queued`, [...insert.bindings, JOBS_CHANNEL]);
  }

  async buryExpired(now: Date): Promise<number> {
    const at = toDbDate(now);
    return this.knex("jobs").where("status", "running").where("lease_expires_at", "<", at).whereRaw("attempts >= max_attempts").update({
      status: "dead",
      last_error: "the worker running the last attempt stopped before finishing",
      lease_owner: null,
      lease_expires_at: null,
      updated_at: at,
    });
  }

  async claim(owner: string, limit: number, now: Date, leaseMs: number, options: { readonly expired?: boolean } = {}): Promise<Job[]> {
    const at = toDbDate(now);
    const leaseUntil = toDbDate(new Date(now.getTime() + leaseMs));
    // Jobs whose worker stopped (lease ran out) first, then queued jobs in claim order.
    const expired =
      options.expired === false
        ? []
        : await this.claimWhere(
            owner,
            leaseUntil,
            at,
            limit,
            "status = 'running' and lease_expires_at < ? and attempts < max_attempts",
            "lease_expires_at, id",
          );
    const queued =
      expired.length < limit
        ? await this.claimWhere(owner, leaseUntil, at, limit - expired.length, "status = 'queued' and run_at <= ?", "priority desc, run_at, id")
        : [];
    return [...expired, ...queued].map(toJob).sort((a, b) => b.priority - a.priority || a.runAt.getTime() - b.runAt.getTime() || a.id.localeCompare(b.id));
  }

  /** One atomic claim: SKIP LOCKED on Postgres keeps concurrent workers apart; SQLite has one writer. */
  private async claimWhere(owner: string, leaseUntil: string | null, at: string | null, limit: number, condition: string, order: string): Promise<unknown[]> {
    if (!Number.isInteger(limit)) throw new Error(`claim: limit must be an integer, got ${limit}`);
    // The LIMIT is written in: SQLite prepares a statement whose LIMIT is bound again on every run.
    const sql = `update jobs set status = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
       where id in (select id from jobs where ${condition} order by ${order} limit ${limit} ${this.postgres ? "for update skip locked" : ""})
       returning *`;
    const bindings = [owner, leaseUntil, at, at];
    if (!this.postgres) return (await this.knex.raw(sql, bindings)) as unknown[];
    // The settings travel with the UPDATE in one simple query (one round trip, one implicit
    // transaction, which SET LOCAL ends with), so the values are written in as literals.
    const results = await this.knex.raw<Array<{ rows: unknown[] }>>(`${POSTGRES_CLAIM_SETTINGS} ${inlineLiterals(sql, bindings)}`);
    return results.at(-1)?.rows ?? [];
  }

  private owned(jobId: string, owner: string) {
    return this.knex("jobs").where({ id: jobId, lease_owner: owner, status: "running" });
  }

  async heartbeat(jobId: string, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    const changed = await this.owned(jobId, owner).update({ lease_expires_at: toDbDate(new Date(now.getTime() + leaseMs)), updated_at: toDbDate(now) });
    return changed > 0;
  }

  async complete(jobId: string, owner: string, now: Date): Promise<boolean> {
    const [settled] = await this.completions.submit([{ jobId, owner, at: now }]);
    return settled ?? false;
  }

  /**
   * One UPDATE per worker (owner) among the completions, so a group costs one round trip and
   * one commit; each job's completion time is the group's latest, a few milliseconds at most
   * from its own.
   */
  private async completeAll(items: readonly Completion[]): Promise<boolean[]> {
    const byOwner = new Map<string, Completion[]>();
    for (const item of items) {
      const group = byOwner.get(item.owner);
      if (group) group.push(item);
      else byOwner.set(item.owner, [item]);
    }
    const completeOwned = async (db: Knex, owner: string, group: readonly Completion[]): Promise<string[]> => {
      const at = toDbDate(new Date(Math.max(...group.map((item) => item.at.getTime()))));
      const rows: Array<{ id: string }> = await db("jobs")
        .whereIn(
          "id",
          group.map((item) => item.jobId),
        )
        .where({ lease_owner: owner, status: "running" })
        .update({ status: "completed", completed_at: at, lease_owner: null, lease_expires_at: null, updated_at: at }, ["id"]);
      return rows.map((row) => row.id);
    };
    // What each owner settled: another owner's completion of the same job must not count.
    const settle = async (db: Knex): Promise<Map<string, Set<string>>> => {
      const settled = new Map<string, Set<string>>();
      for (const [owner, group] of byOwner) settled.set(owner, new Set(await completeOwned(db, owner, group)));
      return settled;
    };
    const settled = byOwner.size === 1 ? await settle(this.knex) : await this.knex.transaction(settle);
    return items.map((item) => settled.get(item.owner)?.has(item.jobId) ?? false);
  }

  async fail(job: Job, owner: string, error: string, now: Date, options: { readonly retry?: boolean } = {}): Promise<"retrying" | "dead" | "lost"> {
    const dead = options.retry === false || job.attempts >= job.maxAttempts;
    const changed = await this.owned(job.id, owner).update({
      status: dead ? "dead" : "queued",
      run_at: dead ? toDbDate(job.runAt) : toDbDate(new Date(now.getTime() + retryDelayMs(job.attempts))),
      last_error: error.slice(0, 4000),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: toDbDate(now),
    });
    if (changed === 0) return "lost";
    return dead ? "dead" : "retrying";
  }

  async release(jobId: string, owner: string, now: Date): Promise<void> {
    await this.owned(jobId, owner).update({
      status: "queued",
      attempts: this.knex.raw("attempts - 1"),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: toDbDate(now),
    });
  }

  async find(jobId: string): Promise<Job | null> {
    const row = await this.knex("jobs").where({ id: jobId }).first();
    return row ? toJob(row) : null;
  }
}
