import * as t from "io-ts";
import { isRight } from "fp-ts/lib/Either.js";
import { decodeBase64Url, encodeBase64Url } from "./base64url.js";
import { integerBetween, optional } from "./codecs.js";
import { badRequest, type DomainError } from "./errors.js";
import { fail, ok, type Result } from "./result.js";

/**
 * Cursor pagination for list endpoints with no public shape of their own (decisions.md):
 * `limit` (1-100, default 50) and an opaque `cursor` in, `pagination: {limit, nextCursor,
 * hasMore}` out. A cursor is the position of the last item shown, as base64url JSON.
 */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

/** The query fields, to spread into a list's query codec. */
export const cursorPageFields = { limit: optional(integerBetween(1, MAX_PAGE_LIMIT)), cursor: optional(t.string) };

export interface CursorPageQuery {
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

export interface Pagination {
  readonly limit: number;
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
}

export const encodeCursor = (position: Readonly<Record<string, unknown>>): string => encodeBase64Url(JSON.stringify(position));

/** The position a cursor holds, or null when it is not one this list gave out. */
export function decodeCursor<A>(cursor: string, position: t.Decoder<unknown, A>): A | null {
  const text = decodeBase64Url(cursor);
  if (text === null) return null;
  try {
    const decoded = position.decode(JSON.parse(text));
    return isRight(decoded) ? decoded.right : null;
  } catch {
    return null;
  }
}

const invalidCursor = (): DomainError => badRequest("cursor is not valid: start again without it");

/** The page asked for: its limit, and the position after which it starts (null for the first page). */
export function readCursorPage<A>(
  query: CursorPageQuery,
  position: t.Decoder<unknown, A>,
  invalid = invalidCursor,
): Result<{ limit: number; after: A | null }> {
  const limit = Math.min(query.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
  const cursor = query.cursor?.trim() ?? "";
  if (cursor === "") return ok({ limit, after: null });
  const after = decodeCursor(cursor, position);
  return after === null ? fail(invalid()) : ok({ limit, after });
}

/** The pagination of a page whose last item is `last`; the next cursor points past it when there is more. */
export const paginationOf = <R>(
  limit: number,
  hasMore: boolean,
  last: R | undefined,
  positionOf: (last: R) => Readonly<Record<string, unknown>>,
): Pagination => ({
  limit,
  nextCursor: hasMore && last !== undefined ? encodeCursor(positionOf(last)) : null,
  hasMore,
});

/**
 * Offset pagination, the compat shape of campaigns, templates and sequences (compat-reference
 * §1.4): `limit` (1-100, default 50) and `offset` in, `pagination: {limit, offset, count,
 * total, hasMore}` out.
 */
export const MAX_PAGE_OFFSET = 1_000_000_000;

/** The query fields, to spread into a list's query codec. */
export const offsetPageFields = { limit: optional(integerBetween(1, MAX_PAGE_LIMIT)), offset: optional(integerBetween(0, MAX_PAGE_OFFSET)) };

export interface OffsetPageQuery {
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

export interface OffsetPagination {
  readonly limit: number;
  readonly offset: number;
  /** Rows in this page. */
  readonly count: number;
  readonly total: number;
  readonly hasMore: boolean;
}

/** The page asked for, with the defaults applied. */
export const readOffsetPage = (query: OffsetPageQuery): { limit: number; offset: number } => ({
  limit: query.limit ?? DEFAULT_PAGE_LIMIT,
  offset: query.offset ?? 0,
});

/** The pagination of a page of `count` rows out of `total`. */
export const offsetPaginationOf = (page: { limit: number; offset: number }, count: number, total: number): OffsetPagination => ({
  limit: page.limit,
  offset: page.offset,
  count,
  total,
  hasMore: page.offset + count < total,
});
