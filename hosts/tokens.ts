import type { Knex } from "knex";
import { token } from "../core/shared/token.js";
import type { Capacity } from "./capacity.js";
import type { Logger } from "./logger.js";

/**
 * Process-wide values the hosts share with the container: one module of their own, so that
 * capabilities, routes and the container can all name them without importing each other.
 */
export const Database = token<Knex>("lifecycle.Database");
export const AppLogger = token<Logger>("lifecycle.Logger");
export const BaseUrl = token<string>("lifecycle.BaseUrl");
/** BASE_URL's host name: where custom domains point (CNAME), and the one name no company may claim. */
export const ServiceHost = token<string>("lifecycle.ServiceHost");
/** The 32-byte master key (SECRET_KEY) for stored secrets and signed tokens. */
export const SecretKey = token<Buffer>("lifecycle.SecretKey");
/** Where mail goes: `smtp://`, `smtps://`, `file:<dir>` or `memory:` (CONTRACTS.md, MAIL_URL). */
export const MailUrl = token<string>("lifecycle.MailUrl");
/** When set, rate-limit counters live in Redis. */
export const RedisUrl = token<string | undefined>("lifecycle.RedisUrl");
/** ALLOW_PRIVATE_DESTINATIONS: outbound destinations may be loopback/private and plain http (tests only). */
export const AllowPrivateDestinations = token<boolean>("lifecycle.AllowPrivateDestinations");

/** TRANSLATION_URL and TRANSLATION_API_KEY: the translation service of localization syncs (undefined: none). */
export const TranslationSettings = token<{ readonly url: string; readonly apiKey?: string | undefined } | undefined>("lifecycle.TranslationSettings");

/** The server's capacity settings (hosts/capacity.ts): fair share, load shedding, statement time limit. */
export const CapacitySettings = token<Capacity>("lifecycle.Capacity");

/** Clean-up of resources made on demand (connections), run when the runtime closes. */
export type Disposables = Array<() => Promise<void>>;
export const Disposables = token<Disposables>("lifecycle.Disposables");
