import { ContainerModule, type ResolutionContext } from "inversify";
import { Redis } from "ioredis";
import type { Knex } from "knex";
import { AesGcmSecretBox } from "../../adapters/crypto/aes-gcm-secret-box.js";
import { HmacTokenSigner } from "../../adapters/crypto/hmac-token-signer.js";
import { CryptoRandomTokens } from "../../adapters/crypto/random-tokens.js";
import { isPostgres } from "../../adapters/knex/connection.js";
import { createDatabaseProbe, DatabaseProbe } from "../../adapters/knex/database-probe.js";
import { KnexJobQueue } from "../../adapters/knex/knex-job-queue.js";
import { KnexScheduleStore } from "../../adapters/knex/knex-schedule-store.js";
import { KnexIdempotencyStore } from "../../adapters/knex/repositories/idempotency-store.js";
import { FlexibleRateLimiter, type RateStore } from "../../adapters/rate-limit/flexible-rate-limiter.js";
import { sweepExpiredRateLimits } from "../../adapters/rate-limit/sweep-expired-rate-limits.js";
import { TimerDelay } from "../../adapters/system/timer-delay.js";
import { UlidIdGenerator } from "../../adapters/system/ulid-id-generator.js";
import { operatorBudgets } from "../../core/access/fair-share.js";
import { CompanyRefusals } from "../../core/access/company-refusals.js";
import { FairAdmission } from "../../core/access/fair-admission.js";
import { IdempotencyStore } from "../../core/idempotency/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { Delay } from "../../core/ports/delay.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { RandomTokens } from "../../core/ports/random-tokens.js";
import { JobQueue, JobStore, ScheduleStore } from "../../core/ports/job-queue.js";
import { RateLimiter } from "../../core/ports/rate-limiter.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { TokenSigner } from "../../core/ports/token-signer.js";
import { bindClass, bindFactory } from "../bind-class.js";
import type { Capacity } from "../capacity.js";
import { CapacitySettings, Database, Disposables, RedisUrl, SecretKey } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

const SWEEP_RATE_LIMITS = "platform.sweep_rate_limits";

/**
 * What every capability builds on: IDs and unguessable tokens, waiting, stored-secret encryption and token signing, the
 * durable job queue with its schedules and the registry of job handlers, rate limits and capacity
 * (fair share, places in flight, the database probe), and idempotency keys.
 */
export const platformModule = new ContainerModule((container) => {
  container.bind<IdGenerator>(IdGenerator).toConstantValue(new UlidIdGenerator());
  container.bind<RandomTokens>(RandomTokens).toConstantValue(new CryptoRandomTokens());
  container.bind<Delay>(Delay).toConstantValue(new TimerDelay());
  bindFactory(container, Disposables, () => [], []);
  bindFactory(container, SecretBox, (secretKey: Buffer) => new AesGcmSecretBox(secretKey), [SecretKey]);
  bindFactory(container, TokenSigner, (secretKey: Buffer) => new HmacTokenSigner(secretKey), [SecretKey]);

  // The durable job queue, its schedules, and the handlers capabilities register for the worker.
  bindClass(container, KnexJobQueue, [Database, IdGenerator, Clock]);
  container.bind<JobQueue>(JobQueue).toService(KnexJobQueue);
  container.bind<JobStore>(JobStore).toService(KnexJobQueue);
  bindClass(container, KnexScheduleStore, [Database, JobQueue]);
  container.bind<ScheduleStore>(ScheduleStore).toService(KnexScheduleStore);
  bindClass(container, JobHandlers, []);

  // Rate limits: counters in Redis when configured, else in Postgres, else in this process (SQLite).
  bindFactory(
    container,
    RateLimiter,
    (redisUrl: string | undefined, knex: Knex, capacity: Capacity, disposables: Disposables) => {
      const store: RateStore = redisUrl
        ? { kind: "redis", redis: new Redis(redisUrl, { maxRetriesPerRequest: 1 }) }
        : isPostgres(knex)
          ? { kind: "postgres", knex }
          : { kind: "memory" };
      const limiter = new FlexibleRateLimiter(store, operatorBudgets(capacity));
      disposables.push(() => limiter.close());
      return limiter;
    },
    [RedisUrl, Database, CapacitySettings, Disposables],
  );
  // Capacity: each company's places in flight and the server's places at work (this process), and a /health that queues behind nothing.
  bindFactory(container, FairAdmission, (capacity: Capacity) => new FairAdmission(capacity.companyMaxInFlight, capacity.serverConcurrency), [CapacitySettings]);
  bindFactory(container, CompanyRefusals, (limiter: RateLimiter, admission: FairAdmission) => new CompanyRefusals(limiter, admission), [
    RateLimiter,
    FairAdmission,
  ]);
  bindFactory(
    container,
    DatabaseProbe,
    (knex: Knex, disposables: Disposables) => {
      const probe = createDatabaseProbe(knex);
      disposables.push(() => probe.close());
      return probe;
    },
    [Database, Disposables],
  );

  bindClass(container, KnexIdempotencyStore, [Database]);
  container.bind<IdempotencyStore>(IdempotencyStore).toService(KnexIdempotencyStore);

  container.onActivation(JobHandlers, registerSweeps);
});

/** Expired rate-limit counters are swept on a schedule of their own (idempotency keys go with the retention sweep). */
function registerSweeps(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(SWEEP_RATE_LIMITS, async () => {
    await sweepExpiredRateLimits(container.get<Knex>(Database), container.get<Clock>(Clock).now());
  });
  handlers.schedule({ name: SWEEP_RATE_LIMITS, everyMs: 10 * 60_000, job: { type: SWEEP_RATE_LIMITS } });
  return handlers;
}
