/** Postgres SQLSTATE 57014: the statement ran past `statement_timeout` (or was cancelled) and was stopped. */
export const isStatementTimeout = (error: unknown): boolean => (error as { code?: unknown } | undefined)?.code === "57014";
