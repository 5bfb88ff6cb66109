/**
 * The library entry for embedders: `import { createLifecycle } from "lifecycle-email"`.
 * It builds the same container the server uses, over SQLite, Postgres or the in-memory
 * profile, and hands out the use cases.
 */
import type { Express } from "express";
import type { Container } from "inversify";
import { AuthenticateApiKey } from "../core/api-keys/authenticate-api-key.js";
import { CreateApiKey } from "../core/api-keys/create-api-key.js";
import { CreateMemberApiKey } from "../core/api-keys/create-member-api-key.js";
import { ListApiKeys } from "../core/api-keys/list-api-keys.js";
import { RevokeApiKey } from "../core/api-keys/revoke-api-key.js";
import { UpdateApiKey } from "../core/api-keys/update-api-key.js";
import type { Clock } from "../core/ports/clock.js";
import { JobQueue } from "../core/ports/job-queue.js";
import { JobHandlers } from "./worker/job-handlers.js";
import { createWorker } from "./worker/create-worker.js";
import type { Actor } from "../core/shared/actor.js";
import { OPERATOR } from "../core/shared/actor.js";
import { CreateCompany, type CreatedCompany } from "../core/tenancy/create-company.js";
import { DescribeAccount } from "../core/tenancy/describe-account.js";
import { ManualClock } from "../adapters/memory/manual-clock.js";
import { createHttpApp } from "./http/app.js";
import type { TrustProxy } from "./config.js";
import type { RetentionPolicy } from "../core/retention/policy.js";
import { createLogger, type Logger } from "./logger.js";
import { loadSecretKey } from "./secret-key.js";
import { startRuntime } from "./runtime.js";
import type { Capacity } from "./capacity.js";

export type { Actor, OperatorActor } from "../core/shared/actor.js";
export { OPERATOR } from "../core/shared/actor.js";
export type { DomainError, FieldError } from "../core/shared/errors.js";
export type { Result } from "../core/shared/result.js";
export { SCOPE_CATALOG, ALL_SCOPES, type Scope } from "../core/access/scopes.js";
export { PRESET_NAMES, type PresetName } from "../core/access/presets.js";
export { ROLES, type Role } from "../core/tenancy/model.js";
export type { Clock } from "../core/ports/clock.js";
export { DEFAULT_RETENTION, type RetentionPolicy } from "../core/retention/policy.js";
export type { Job, JobQueue, JobRequest, RecurringSchedule } from "../core/ports/job-queue.js";
export { JobHandlers, type DefinedJobHandler, type JobHandler } from "./worker/job-handlers.js";
export { defineJob, UnrunnableJob, type JobDefinition, type JobWork, type WorkOf } from "../core/jobs/job-definition.js";
export { ManualClock } from "../adapters/memory/manual-clock.js";
export { DEFAULT_CAPACITY, type Capacity } from "./capacity.js";

export interface LifecycleOptions {
  /** `memory` (SQLite in memory; the default), `sqlite` or `postgres`. */
  readonly database?: "memory" | "sqlite" | "postgres";
  /** `sqlite:<path>` or `postgres://...`; required for postgres, defaults to ./data/lifecycle.sqlite for sqlite. */
  readonly url?: string;
  /** Postgres schema to keep the tables in. */
  readonly schema?: string;
  readonly clock?: Clock;
  /** Public origin used in URLs the API returns. */
  readonly baseUrl?: string;
  /** Keep rate-limit counters in Redis (shared by every server). */
  readonly redisUrl?: string;
  readonly logger?: Logger;
  /**
   * The master key for stored secrets and signed tokens (32 bytes, or their base64). Defaults
   * to SECRET_KEY, then to ./data/secret.key (made once); the memory profile uses a fresh one.
   */
  readonly secretKey?: Buffer | string;
  /** Where mail goes (MAIL_URL syntax); defaults to `memory:`. */
  readonly mailUrl?: string;
  /** Let outbound destinations be loopback/private addresses (local testing only). */
  readonly allowPrivateDestinations?: boolean;
  /** A LibreTranslate-compatible service for template localization syncs (TRANSLATION_URL, TRANSLATION_API_KEY); none by default. */
  readonly translation?: { readonly url: string; readonly apiKey?: string };
  /** Express's `trust proxy` for httpApp() (TRUST_PROXY syntax: true, hop count, addresses/CIDRs); off by default. */
  readonly trustProxy?: TrustProxy;
  /** How long finished jobs, rendered bodies and delivery events are kept (days; 0 forever). */
  readonly retention?: RetentionPolicy;
  /** Fair share per company, load shedding and the statement time limit (defaults: DEFAULT_CAPACITY). */
  readonly capacity?: Partial<Capacity>;
}

export interface Lifecycle {
  readonly container: Container;
  readonly useCases: {
    readonly createCompany: CreateCompany;
    readonly createMemberApiKey: CreateMemberApiKey;
    readonly authenticate: AuthenticateApiKey;
    readonly createApiKey: CreateApiKey;
    readonly listApiKeys: ListApiKeys;
    readonly updateApiKey: UpdateApiKey;
    readonly revokeApiKey: RevokeApiKey;
    readonly describeAccount: DescribeAccount;
  };
  /** The HTTP API as an Express application, to mount or listen on. */
  httpApp(): Express;
  close(): Promise<void>;
}

function databaseUrlOf(options: LifecycleOptions): string {
  switch (options.database ?? "memory") {
    case "memory":
      return "sqlite::memory:";
    case "sqlite":
      return options.url ?? "sqlite:./data/lifecycle.sqlite";
    case "postgres":
      if (!options.url) throw new Error("createLifecycle: a postgres:// url is required for the postgres profile");
      return options.url;
  }
}

function secretKeyOf(options: LifecycleOptions): { secretKey?: Buffer } {
  if (Buffer.isBuffer(options.secretKey)) return { secretKey: options.secretKey };
  // In memory nothing sealed outlives the process: a fresh key (startRuntime's default) will do.
  if ((options.database ?? "memory") === "memory" && options.secretKey === undefined) return {};
  return { secretKey: loadSecretKey(options.secretKey ?? process.env.SECRET_KEY) };
}

export async function createLifecycle(options: LifecycleOptions = {}): Promise<Lifecycle> {
  const runtime = await startRuntime({
    databaseUrl: databaseUrlOf(options),
    logger: options.logger ?? createLogger("warn"),
    baseUrl: options.baseUrl ?? "http://localhost:3000",
    redisUrl: options.redisUrl,
    ...(options.schema ? { schema: options.schema } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...secretKeyOf(options),
    mailUrl: options.mailUrl ?? "memory:",
    allowPrivateDestinations: options.allowPrivateDestinations ?? false,
    translation: options.translation,
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.capacity ? { capacity: options.capacity } : {}),
  });
  const { container } = runtime;
  return {
    container,
    useCases: {
      createCompany: container.get(CreateCompany),
      createMemberApiKey: container.get(CreateMemberApiKey),
      authenticate: container.get(AuthenticateApiKey),
      createApiKey: container.get(CreateApiKey),
      listApiKeys: container.get(ListApiKeys),
      updateApiKey: container.get(UpdateApiKey),
      revokeApiKey: container.get(RevokeApiKey),
      describeAccount: container.get(DescribeAccount),
    },
    httpApp: () => createHttpApp(container, { trustProxy: options.trustProxy ?? false }),
    close: () => runtime.close(),
  };
}

export interface TestCompany extends CreatedCompany {
  /** The owner acting through the company's owner key. */
  readonly actor: Actor;
}

export interface TestKit {
  readonly lifecycle: Lifecycle;
  readonly clock: ManualClock;
  /** The durable queue the use cases enqueue into. */
  readonly jobs: JobQueue;
  /** Register handlers here before running jobs. */
  readonly handlers: JobHandlers;
  /** Runs every job due at the manual clock's time, and resolves when they are settled. */
  runDueJobs(): Promise<number>;
  /** A company with an owner and a full-access owner key. */
  createCompany(name?: string, ownerEmail?: string): Promise<TestCompany>;
  close(): Promise<void>;
}

/** The memory profile with a manual clock: for testing code built on the platform. */
export async function createTestKit(options: { start?: Date | string } = {}): Promise<TestKit> {
  const clock = new ManualClock(options.start);
  const lifecycle = await createLifecycle({ database: "memory", clock, logger: createLogger("silent") });
  const worker = createWorker(lifecycle.container, { concurrency: 4 }, { push: false });
  let companies = 0;
  return {
    lifecycle,
    clock,
    jobs: lifecycle.container.get<JobQueue>(JobQueue),
    handlers: lifecycle.container.get(JobHandlers),
    runDueJobs: () => worker.runDue(),
    async createCompany(name, ownerEmail) {
      companies += 1;
      const created = await lifecycle.useCases.createCompany.execute(OPERATOR, {
        name: name ?? `Company ${companies}`,
        ownerEmail: ownerEmail ?? `owner${companies}@example.com`,
      });
      if (created._tag === "Left") throw new Error(created.left.message);
      const actor = await lifecycle.useCases.authenticate.execute(created.right.plainKey);
      if (actor._tag === "Left") throw new Error(actor.left.message);
      return { ...created.right, actor: actor.right };
    },
    close: () => lifecycle.close(),
  };
}
