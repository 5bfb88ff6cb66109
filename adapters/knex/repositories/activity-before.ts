import type { Knex } from "knex";
import type { ActivityPosition } from "../../../core/subscribers/activity-cursor.js";
import { toDbDate } from "../row-codecs.js";

/**
 * Restricts a newest-first activity query (ordered by `timeColumn` desc, then `idColumn` desc) to
 * the rows after `before` in that order: older, or as old with a lower ID.
 */
export function olderThan(query: Knex.QueryBuilder, timeColumn: string, idColumn: string, before: ActivityPosition | null): Knex.QueryBuilder {
  if (!before) return query;
  const at = toDbDate(before.at);
  return query.andWhere((older) => older.where(timeColumn, "<", at).orWhere((same) => same.where(timeColumn, at).andWhere(idColumn, "<", before.id)));
}
