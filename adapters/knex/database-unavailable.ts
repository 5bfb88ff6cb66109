/**
 * Whether an error means "the database did not answer" (so the caller may retry), as opposed
 * to a bug or a rejected statement.
 */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// Postgres SQLSTATE classes 08 (connection exception) and 57P0x (shutdown, cannot connect now); 53300 too many connections.
const POSTGRES_STATES = /^(08\d{3}|57P0[1-4]|53300)$/;
const SQLITE_CODES = new Set(["SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_FULL"]);
const MESSAGES =
  /Timeout acquiring a connection|Connection terminated|connection (is )?closed|Client has encountered a connection error|the database system is (starting up|shutting down)|Unable to acquire a connection|aborted/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined, depth = 0; current && depth < 5; depth++) {
    const code = typeof current.code === "string" ? current.code : "";
    if (NETWORK_CODES.has(code) || POSTGRES_STATES.test(code) || SQLITE_CODES.has(code.split("_").slice(0, 2).join("_"))) return true;
    if (typeof current.message === "string" && MESSAGES.test(current.message)) return true;
    if (Array.isArray(current.errors) && current.errors.some(isDatabaseUnavailable)) return true;
    current = current.cause as typeof current;
  }
  return false;
}
