import type { Suppression } from "./model.js";
import { token } from "../shared/token.js";

export const SUPPRESSION_SORTS = ["suppressedAt", "email", "status"] as const;
export type SuppressionSort = (typeof SUPPRESSION_SORTS)[number];

export interface SuppressionSearch {
  /** Part of the address, case-insensitive. */
  readonly search?: string | undefined;
  readonly page: number;
  readonly limit: number;
  readonly sort: SuppressionSort;
  readonly order: "asc" | "desc";
}

/** Pages through a company's suppression list (the write side is SuppressionRepository). */
export interface SuppressionQueries {
  search(companyId: string, query: SuppressionSearch): Promise<{ readonly suppressions: Suppression[]; readonly total: number }>;
}
export const SuppressionQueries = token<SuppressionQueries>("lifecycle.SuppressionQueries");
