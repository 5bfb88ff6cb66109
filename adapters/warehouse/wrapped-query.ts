import type { WarehouseRead } from "../../core/warehouse/ports.js";

/** A name as an SQL identifier (Postgres and SQLite alike): in double quotes, inner quotes doubled. */
export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The user's query without the semicolons that may end it (it becomes a subquery). */
export const bareQuery = (query: string): string => query.trim().replace(/(\s*;)+$/, "");

/**
 * The user's query as a subquery, so that it need not know the cursor: rows past the cursor, in
 * cursor order, at most `limit`. The query stands on lines of its own, so a trailing `--`
 * comment cannot swallow the closing parenthesis; being a subquery, it cannot be several
 * statements or a data-modifying one.
 */
export function wrappedRead(
  read: Pick<WarehouseRead, "query" | "cursorColumn" | "after" | "limit">,
  placeholder: string,
): { readonly sql: string; readonly values: string[] } {
  let sql = `select * from (\n${bareQuery(read.query)}\n) as warehouse_source`;
  const values: string[] = [];
  if (read.cursorColumn !== null) {
    const cursor = quoteIdentifier(read.cursorColumn);
    sql += ` where ${cursor} is not null`;
    if (read.after !== null) {
      sql += ` and ${cursor} > ${placeholder}`;
      values.push(read.after);
    }
    sql += ` order by ${cursor}`;
  }
  return { sql: `${sql} limit ${Math.max(0, Math.floor(read.limit))}`, values };
}

/** The query's columns without reading a row. */
export const describeQuery = (query: string): string => `select * from (\n${bareQuery(query)}\n) as warehouse_source limit 0`;
