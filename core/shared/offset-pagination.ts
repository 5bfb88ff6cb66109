import * as t from "io-ts";
import { integerBetween, optional } from "./codecs.js";
import { view } from "./view-fields.js";

/**
 * Offset pagination as compat-reference §1.4 shows it for campaigns, templates and sequences:
 * `limit` (1-100) and `offset` in, `pagination: {limit, offset, count, total, hasMore}` out.
 * Where a list returns everything when neither is given, `limit` is null.
 */
export const MAX_OFFSET_LIMIT = 100;
export const MAX_OFFSET = 1_000_000_000;
export const DEFAULT_OFFSET_LIMIT = 50;

/** The query fields, to spread into a list's query codec. */
export const offsetPageFields = { limit: optional(integerBetween(1, MAX_OFFSET_LIMIT)), offset: optional(integerBetween(0, MAX_OFFSET)) };

export interface OffsetPagination {
  readonly limit: number | null;
  readonly offset: number;
  /** Rows in this page. */
  readonly count: number;
  readonly total: number;
  readonly hasMore: boolean;
}

export const OffsetPaginationView = view(
  { limit: t.union([t.number, t.null]), offset: t.number, count: t.number, total: t.number, hasMore: t.boolean },
  "OffsetPagination",
);

export const offsetPagination = (limit: number | null, offset: number, count: number, total: number): OffsetPagination => ({
  limit,
  offset,
  count,
  total,
  hasMore: offset + count < total,
});

/** The page asked for, with the defaults applied (for lists that always page). */
export const readOffsetPage = (query: { readonly limit?: number | undefined; readonly offset?: number | undefined }): { limit: number; offset: number } => ({
  limit: query.limit ?? DEFAULT_OFFSET_LIMIT,
  offset: query.offset ?? 0,
});
