import * as t from "io-ts";
import { Email, IntegerFromString, optional } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { SUPPRESSION_SORTS, type SuppressionSort } from "./suppression-search.js";

const keys = <K extends string>(values: readonly K[], name: string) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>, name);

const integerBetween = (min: number, max: number) =>
  withSchema(
    new t.Type<number, string, unknown>(
      `Integer(${min}..${max})`,
      (u): u is number => Number.isInteger(u) && (u as number) >= min && (u as number) <= max,
      (u, c) => {
        const parsed = IntegerFromString.validate(u, c);
        if (parsed._tag === "Left") return parsed;
        return parsed.right >= min && parsed.right <= max ? t.success(parsed.right) : t.failure(u, c, `must be between ${min} and ${max}`);
      },
      String,
    ),
    { type: "integer", minimum: min, maximum: max },
  );

export const DEFAULT_SUPPRESSION_PAGE_SIZE = 25;

/** GET /suppressions. */
export const ListSuppressionsQuery = t.exact(
  t.partial({
    search: optional(t.string),
    page: optional(integerBetween(1, 1_000_000)),
    limit: optional(integerBetween(1, 100)),
    sort: optional(keys<SuppressionSort>(SUPPRESSION_SORTS, "SuppressionSort")),
    order: optional(keys(["asc", "desc"], "SortOrder")),
  }),
  "ListSuppressionsQuery",
);
export type ListSuppressionsQuery = t.TypeOf<typeof ListSuppressionsQuery>;

/** `/suppressions/{email}`: the address, URL-decoded by the router. */
export const SuppressionEmailPath = t.type({ email: Email }, "SuppressionEmailPath");

/** `region` is accepted for compatibility: there is one suppression list per company. */
export const SuppressionRegionQuery = t.exact(t.partial({ region: optional(t.string) }), "SuppressionRegionQuery");
