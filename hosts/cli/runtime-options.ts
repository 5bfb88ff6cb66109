import type { AppConfig } from "../config.js";
import type { Logger } from "../logger.js";
import type { RuntimeOptions } from "../runtime.js";
import { loadSecretKey } from "../secret-key.js";

/** What every command's runtime is made of, from the configuration (CONTRACTS.md). */
export const runtimeOptions = (config: AppConfig, logger: Logger): RuntimeOptions => ({
  databaseUrl: config.databaseUrl,
  logger,
  baseUrl: config.baseUrl,
  redisUrl: config.redisUrl,
  secretKey: loadSecretKey(config.secretKey),
  mailUrl: config.mailUrl,
  allowPrivateDestinations: config.allowPrivateDestinations,
  translation: config.translation,
  campaignSends: config.campaignSends,
  retention: config.retention,
  capacity: config.capacity,
});
