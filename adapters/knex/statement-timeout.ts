/**
 * A statement stopped at its time limit: Postgres SQLSTATE 57014 (`statement_timeout`, or a
 * cancel), SQLite SQLITE_INTERRUPT (the time limit extension is all that interrupts statements).
 */
export const isStatementTimeout = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "57014" || code === "SQLITE_INTERRUPT";
};
