import { pageFields } from "../shared/page-pagination.js";
import * as t from "io-ts";
import { Email, oneOf, optional } from "../shared/codecs.js";
import { SUPPRESSION_SORTS, type SuppressionSort } from "./suppression-queries.js";

export const DEFAULT_SUPPRESSION_PAGE_SIZE = 25;

/** GET /suppressions. */
export const ListSuppressionsQuery = t.exact(
  t.partial({
    search: optional(t.string),
    ...pageFields(100),
    sort: optional(oneOf<SuppressionSort>(SUPPRESSION_SORTS, "SuppressionSort")),
    order: optional(oneOf(["asc", "desc"], "SortOrder")),
  }),
  "ListSuppressionsQuery",
);
export type ListSuppressionsQuery = t.TypeOf<typeof ListSuppressionsQuery>;

/** `/suppressions/{email}`: the address, URL-decoded by the router. */
export const SuppressionEmailPath = t.type({ email: Email }, "SuppressionEmailPath");

/** `region` is accepted for compatibility: there is one suppression list per company. */
export const SuppressionRegionQuery = t.exact(t.partial({ region: optional(t.string) }), "SuppressionRegionQuery");
