/**
 * Process-wide values the hosts share with the container: one module of their own, so that
 * capabilities, routes and the container can all name them without importing each other.
 */
export const Database = Symbol.for("lifecycle.Database");
export const AppLogger = Symbol.for("lifecycle.Logger");
export const BaseUrl = Symbol.for("lifecycle.BaseUrl");
/** Where mail goes: `smtp://`, `smtps://`, `file:<dir>` or `memory:` (CONTRACTS.md, MAIL_URL). */
export const MailUrl = Symbol.for("lifecycle.MailUrl");
/** ALLOW_PRIVATE_DESTINATIONS: outbound destinations may be loopback/private and plain http (tests only). */
export const AllowPrivateDestinations = Symbol.for("lifecycle.AllowPrivateDestinations");

/** The server's capacity settings (hosts/capacity.ts): fair share, load shedding, statement time limit. */
export const CapacitySettings = Symbol.for("lifecycle.Capacity");

/** Clean-up of resources made on demand (connections), run when the runtime closes. */
export const Disposables = Symbol.for("lifecycle.Disposables");
export type Disposables = Array<() => Promise<void>>;
