import { Container } from "inversify";
import { bindClass } from "./bind-class.js";
import { capabilities } from "./capabilities/index.js";
import type { Knex } from "knex";
import { AuthenticateApiKey } from "../core/api-keys/authenticate-api-key.js";
import { CreateApiKey } from "../core/api-keys/create-api-key.js";
import { CreateMemberApiKey } from "../core/api-keys/create-member-api-key.js";
import { IssueApiKey } from "../core/api-keys/issue-api-key.js";
import { ListApiKeys } from "../core/api-keys/list-api-keys.js";
import { ApiKeyRepository, ApiKeySecrets, ApiKeyUsage } from "../core/api-keys/ports.js";
import { IdempotencyStore } from "../core/idempotency/ports.js";
import { RevokeApiKey } from "../core/api-keys/revoke-api-key.js";
import { UpdateApiKey } from "../core/api-keys/update-api-key.js";
import { Clock } from "../core/ports/clock.js";
import { IdGenerator } from "../core/ports/id-generator.js";
import { JobQueue, JobStore, ScheduleStore } from "../core/ports/job-queue.js";
import { CreateCompany } from "../core/tenancy/create-company.js";
import { DescribeAccount } from "../core/tenancy/describe-account.js";
import { GetCurrentCompany } from "../core/tenancy/get-current-company.js";
import { TenancyRepository } from "../core/tenancy/ports.js";
import { Sha256ApiKeySecrets } from "../adapters/crypto/api-key-secrets.js";
import { AesGcmSecretBox } from "../adapters/crypto/aes-gcm-secret-box.js";
import { HmacTokenSigner } from "../adapters/crypto/hmac-token-signer.js";
import { SecretBox } from "../core/ports/secret-box.js";
import { TokenSigner } from "../core/ports/token-signer.js";
import { KnexApiKeyRepository } from "../adapters/knex/repositories/api-key-repository.js";
import { KnexIdempotencyStore } from "../adapters/knex/repositories/idempotency-store.js";
import { KnexTenancyRepository } from "../adapters/knex/repositories/tenancy-repository.js";
import { ThrottledApiKeyUsage } from "../adapters/knex/throttled-api-key-usage.js";
import { KnexJobQueue } from "../adapters/knex/knex-job-queue.js";
import { KnexScheduleStore } from "../adapters/knex/knex-schedule-store.js";
import { SystemClock } from "../adapters/system/system-clock.js";
import { UlidIdGenerator } from "../adapters/system/ulid-id-generator.js";
import type { Logger } from "./logger.js";
import { Redis } from "ioredis";
import { RateLimiter } from "../core/ports/rate-limiter.js";
import { isPostgres } from "../adapters/knex/connection.js";
import { FlexibleRateLimiter, type RateStore } from "../adapters/rate-limit/flexible-rate-limiter.js";
import { sweepExpiredRateLimits } from "../adapters/rate-limit/sweep-expired-rate-limits.js";

const SWEEP_RATE_LIMITS = "platform.sweep_rate_limits";
const SWEEP_IDEMPOTENCY_KEYS = "platform.sweep_idempotency_keys";
import { JobHandlers } from "./worker/job-handlers.js";

import { AllowPrivateDestinations, AppLogger, BaseUrl, Database, Disposables, MailUrl } from "./tokens.js";

export interface ContainerParts {
  readonly knex: Knex;
  /** When set, rate-limit counters live in Redis. */
  readonly redisUrl?: string | undefined;
  readonly logger: Logger;
  readonly baseUrl: string;
  /** Defaults to the system clock; tests pass a manual one. */
  readonly clock?: Clock;
  /** The 32-byte master key for stored secrets and signed tokens. */
  readonly secretKey: Buffer;
  readonly mailUrl: string;
  /** Lets bucket endpoints, warehouse hosts and provider APIs be private addresses (tests only). */
  readonly allowPrivateDestinations?: boolean;
}


/**
 * Binds every adapter and use case. Adding a capability adds its lines here; the hosts only
 * ever call `container.get`.
 */
export function buildContainer(parts: ContainerParts): Container {
  const container = new Container({ defaultScope: "Singleton" });

  container.bind<Knex>(Database).toConstantValue(parts.knex);
  container.bind<Logger>(AppLogger).toConstantValue(parts.logger);
  container.bind<string>(BaseUrl).toConstantValue(parts.baseUrl);
  container.bind<Clock>(Clock).toConstantValue(parts.clock ?? new SystemClock());
  container.bind<IdGenerator>(IdGenerator).toConstantValue(new UlidIdGenerator());
  const disposables: Disposables = [];
  container.bind<Disposables>(Disposables).toConstantValue(disposables);
  container.bind<ApiKeySecrets>(ApiKeySecrets).toConstantValue(new Sha256ApiKeySecrets());
  container.bind<SecretBox>(SecretBox).toConstantValue(new AesGcmSecretBox(parts.secretKey));
  container.bind<TokenSigner>(TokenSigner).toConstantValue(new HmacTokenSigner(parts.secretKey));
  container.bind<string>(MailUrl).toConstantValue(parts.mailUrl);
  container.bind<boolean>(AllowPrivateDestinations).toConstantValue(parts.allowPrivateDestinations ?? false);

  // The durable job queue, its schedules, and the handlers capabilities register for the worker.
  bindClass(container, KnexJobQueue, [Database, IdGenerator, Clock]);
  container.bind<JobQueue>(JobQueue).toService(KnexJobQueue);
  container.bind<JobStore>(JobStore).toService(KnexJobQueue);
  bindClass(container, KnexScheduleStore, [Database, JobQueue]);
  container.bind<ScheduleStore>(ScheduleStore).toService(KnexScheduleStore);
  const handlers = new JobHandlers();
  container.bind(JobHandlers).toConstantValue(handlers);

  // Rate limits: counters in Redis when configured, else in Postgres, else in this process (SQLite).
  container.bind<RateLimiter>(RateLimiter).toResolvedValue(() => {
    const store: RateStore = parts.redisUrl
      ? { kind: "redis", redis: new Redis(parts.redisUrl, { maxRetriesPerRequest: 1 }) }
      : isPostgres(parts.knex)
        ? { kind: "postgres", knex: parts.knex }
        : { kind: "memory" };
    const limiter = new FlexibleRateLimiter(store);
    disposables.push(() => limiter.close());
    return limiter;
  });
  handlers.register(SWEEP_RATE_LIMITS, async () => {
    await sweepExpiredRateLimits(parts.knex, container.get<Clock>(Clock).now());
  });
  handlers.schedule({ name: SWEEP_RATE_LIMITS, everyMs: 10 * 60_000, job: { type: SWEEP_RATE_LIMITS } });

  // Repositories (one knex implementation serves SQLite and Postgres).
  container.bind(KnexApiKeyRepository).toResolvedValue((knex: Knex) => new KnexApiKeyRepository(knex), [Database]);
  container.bind<ApiKeyRepository>(ApiKeyRepository).toService(KnexApiKeyRepository);
  container.bind<TenancyRepository>(TenancyRepository).toResolvedValue((knex: Knex) => new KnexTenancyRepository(knex), [Database]);
  bindClass(container, KnexIdempotencyStore, [Database]);
  container.bind<IdempotencyStore>(IdempotencyStore).toService(KnexIdempotencyStore);
  handlers.register(SWEEP_IDEMPOTENCY_KEYS, async () => {
    await container.get(KnexIdempotencyStore).sweepExpired(container.get<Clock>(Clock).now());
  });
  handlers.schedule({ name: SWEEP_IDEMPOTENCY_KEYS, everyMs: 60 * 60_000, job: { type: SWEEP_IDEMPOTENCY_KEYS } });
  container
    .bind<ApiKeyUsage>(ApiKeyUsage)
    .toResolvedValue(
      (keys: KnexApiKeyRepository, logger: Logger) =>
        new ThrottledApiKeyUsage(keys, (error) => logger.warn({ err: error }, "could not record API key use")),
      [KnexApiKeyRepository, AppLogger],
    );

  // Tenancy and API keys.
  bindClass(container, IssueApiKey, [ApiKeyRepository, ApiKeySecrets, IdGenerator, Clock]);
  bindClass(container, AuthenticateApiKey, [ApiKeyRepository, TenancyRepository, ApiKeySecrets, ApiKeyUsage, Clock]);
  bindClass(container, CreateApiKey, [TenancyRepository, IssueApiKey]);
  bindClass(container, ListApiKeys, [ApiKeyRepository]);
  bindClass(container, RevokeApiKey, [ApiKeyRepository, Clock]);
  bindClass(container, UpdateApiKey, [ApiKeyRepository, Clock]);
  bindClass(container, CreateCompany, [TenancyRepository, IssueApiKey, IdGenerator, Clock]);
  bindClass(container, CreateMemberApiKey, [TenancyRepository, IssueApiKey, IdGenerator, Clock]);
  bindClass(container, DescribeAccount, [TenancyRepository]);
  bindClass(container, GetCurrentCompany, [TenancyRepository]);

  for (const bindCapability of capabilities) bindCapability(container, handlers);
  return container;
}
