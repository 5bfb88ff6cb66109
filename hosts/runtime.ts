import { randomBytes } from "node:crypto";
import type { Container } from "inversify";
import type { Knex } from "knex";
import { ApiKeyUsage } from "../core/api-keys/ports.js";
import type { CampaignSendSettings } from "../core/campaigns/send-ports.js";
import type { Clock } from "../core/ports/clock.js";
import type { RetentionPolicy } from "../core/retention/policy.js";
import { createKnex, limitSqliteStatements } from "../adapters/knex/connection.js";
import type { TranslationService } from "../adapters/translation/libre-translate-translator.js";
import { parseDatabaseUrl } from "../adapters/knex/database-url.js";
import { DEFAULT_CAPACITY, type Capacity } from "./capacity.js";
import { migrateToLatest } from "../adapters/knex/migrate.js";
import { preloadMjml } from "../adapters/render/mjml-email-renderer.js";
import { buildContainer } from "./container.js";
import { Disposables } from "./tokens.js";
import type { Logger } from "./logger.js";

export interface RuntimeOptions {
  readonly databaseUrl: string;
  readonly logger: Logger;
  readonly baseUrl: string;
  /** Postgres schema to work in (tests and side-by-side installs). */
  readonly schema?: string;
  readonly clock?: Clock;
  readonly redisUrl?: string | undefined;
  /** The master key (SECRET_KEY); a fresh random one when omitted (tests, in-memory embedders). */
  readonly secretKey?: Buffer;
  /** MAIL_URL; `memory:` when omitted. */
  readonly mailUrl?: string;
  /** ALLOW_PRIVATE_DESTINATIONS; false when omitted. */
  readonly allowPrivateDestinations?: boolean;
  /** TRANSLATION_URL and TRANSLATION_API_KEY; none when omitted. */
  readonly translation?: TranslationService | undefined;
  /** Campaign batch size and throttles; DEFAULT_CAMPAIGN_SENDS when omitted. */
  readonly campaignSends?: CampaignSendSettings;
  /** The RETENTION_* settings; the defaults when omitted. */
  readonly retention?: RetentionPolicy;
  /** Fair share, load shedding and statement time limit; DEFAULT_CAPACITY where omitted. */
  readonly capacity?: Partial<Capacity>;
  /** Load the email renderer before the runtime is ready (true when omitted); commands that never render pass false. */
  readonly preloadRenderer?: boolean;
}

/** What every host runs on: one database pool, an up-to-date schema, and the container. */
export interface Runtime {
  readonly container: Container;
  readonly knex: Knex;
  readonly logger: Logger;
  close(): Promise<void>;
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const capacity: Capacity = { ...DEFAULT_CAPACITY, ...options.capacity };
  const connection = {
    ...(options.schema ? { schema: options.schema } : {}),
    log: {
      warn: (message: string) => options.logger.warn({ source: "knex" }, message),
      error: (message: string) => options.logger.error({ source: "knex" }, message),
    },
  };
  const sqlite = parseDatabaseUrl(options.databaseUrl).dialect === "sqlite";
  const knex = createKnex(options.databaseUrl, { ...connection, ...(sqlite ? {} : { statementTimeoutMs: capacity.dbStatementTimeoutMs }) });
  // Migrations may outlast the statement time limit: on Postgres they go through a connection of
  // their own, and SQLite's one connection is limited once they are done.
  const migrating = sqlite ? knex : createKnex(options.databaseUrl, connection);
  try {
    if (options.schema) await migrating.raw("create schema if not exists ??", [options.schema]);
    const applied = await migrateToLatest(migrating);
    if (applied.length > 0) options.logger.info({ migrations: applied }, "database schema updated");
    const unlimited = sqlite ? await limitSqliteStatements(knex, capacity.dbStatementTimeoutMs) : null;
    if (unlimited)
      options.logger.warn(
        { reason: unlimited },
        "SQLite statements have no time limit: the extension was not built at npm install (it needs python3, make and a C compiler)",
      );
  } catch (error) {
    await knex.destroy();
    throw error;
  } finally {
    if (migrating !== knex) await migrating.destroy();
  }
  if (options.preloadRenderer ?? true) {
    const started = performance.now();
    await preloadMjml();
    options.logger.debug({ ms: Math.round(performance.now() - started) }, "email renderer loaded");
  }
  const container = buildContainer({
    knex,
    logger: options.logger,
    baseUrl: options.baseUrl,
    redisUrl: options.redisUrl,
    secretKey: options.secretKey ?? randomBytes(32),
    mailUrl: options.mailUrl ?? "memory:",
    allowPrivateDestinations: options.allowPrivateDestinations ?? false,
    translation: options.translation,
    capacity,
    ...(options.campaignSends ? { campaignSends: options.campaignSends } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
  });
  let closed = false;
  return {
    container,
    knex,
    logger: options.logger,
    async close() {
      if (closed) return;
      closed = true;
      await container.get<ApiKeyUsage>(ApiKeyUsage).flush();
      for (const dispose of container.get<Disposables>(Disposables)) await dispose();
      await knex.destroy();
    },
  };
}
