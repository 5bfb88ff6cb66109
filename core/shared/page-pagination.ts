import * as t from "io-ts";
import { integerBetween, optional } from "./codecs.js";
import { view } from "./view-fields.js";

/**
 * Page pagination as compat-reference §1.4 shows it for email sends, suppressions and metrics
 * events: `page` (1-based) and `limit` in, `pagination: {page, limit, total, totalPages}` out.
 */
export const MAX_PAGE = 1_000_000;

/** The query fields, to spread into a list's query codec (each list names its own largest limit). */
export const pageFields = (maxLimit: number) => ({ page: optional(integerBetween(1, MAX_PAGE)), limit: optional(integerBetween(1, maxLimit)) });

export interface PagePagination {
  readonly page: number;
  readonly limit: number;
  readonly total: number;
  readonly totalPages: number;
}

export const PagePaginationView = view({ page: t.number, limit: t.number, total: t.number, totalPages: t.number }, "PagePagination");

/** The page asked for, with the defaults applied, and the rows to skip. */
export const readPage = (query: { readonly page?: number | undefined; readonly limit?: number | undefined }, defaultLimit: number) => {
  const page = query.page ?? 1;
  const limit = query.limit ?? defaultLimit;
  return { page, limit, offset: (page - 1) * limit };
};

export const pagePagination = (page: number, limit: number, total: number): PagePagination => ({ page, limit, total, totalPages: Math.ceil(total / limit) });
