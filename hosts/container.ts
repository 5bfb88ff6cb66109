import { Container } from "inversify";
import type { Knex } from "knex";
import { SystemClock } from "../adapters/system/system-clock.js";
import type { TranslationService } from "../adapters/translation/libre-translate-translator.js";
import { Clock } from "../core/ports/clock.js";
import { DEFAULT_RETENTION, RetentionPolicy } from "../core/retention/policy.js";
import { capabilities } from "./capabilities/index.js";
import { DEFAULT_CAPACITY, type Capacity } from "./capacity.js";
import type { Logger } from "./logger.js";
import { AllowPrivateDestinations, AppLogger, BaseUrl, CapacitySettings, Database, MailUrl, RedisUrl, SecretKey, TranslationSettings } from "./tokens.js";
import { CampaignSendSettings, DEFAULT_CAMPAIGN_SENDS } from "../core/campaigns/send-ports.js";

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
  /** A LibreTranslate-compatible service for localization syncs; none when omitted. */
  readonly translation?: TranslationService | undefined;
  /** How long finished jobs, rendered bodies and events are kept; the defaults when omitted. */
  readonly retention?: RetentionPolicy;
  /** Fair share, load shedding, statement time limit; DEFAULT_CAPACITY when omitted. */
  readonly capacity?: Capacity;
  /** Campaign batch size and throttles; DEFAULT_CAMPAIGN_SENDS when omitted. */
  readonly campaignSends?: CampaignSendSettings;
}

/**
 * Binds this process's values and loads every capability's module; adding a capability adds it
 * to capabilities/index.ts. The hosts only ever call `container.get`.
 */
export function buildContainer(parts: ContainerParts): Container {
  const container = new Container({ defaultScope: "Singleton" });

  container.bind<Knex>(Database).toConstantValue(parts.knex);
  container.bind<Logger>(AppLogger).toConstantValue(parts.logger);
  container.bind<string>(BaseUrl).toConstantValue(parts.baseUrl);
  container.bind<Clock>(Clock).toConstantValue(parts.clock ?? new SystemClock());
  container.bind<Buffer>(SecretKey).toConstantValue(parts.secretKey);
  container.bind<string>(MailUrl).toConstantValue(parts.mailUrl);
  container.bind<string | undefined>(RedisUrl).toConstantValue(parts.redisUrl);
  container.bind<boolean>(AllowPrivateDestinations).toConstantValue(parts.allowPrivateDestinations ?? false);
  container.bind<TranslationService | undefined>(TranslationSettings).toConstantValue(parts.translation);
  container.bind<RetentionPolicy>(RetentionPolicy).toConstantValue(parts.retention ?? DEFAULT_RETENTION);
  container.bind<Capacity>(CapacitySettings).toConstantValue(parts.capacity ?? DEFAULT_CAPACITY);
  container.bind<CampaignSendSettings>(CampaignSendSettings).toConstantValue(parts.campaignSends ?? DEFAULT_CAMPAIGN_SENDS);

  container.load(...capabilities);
  return container;
}
