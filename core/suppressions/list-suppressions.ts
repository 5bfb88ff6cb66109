import type { Actor } from "../shared/actor.js";
import { pagePagination, readPage, type PagePagination } from "../shared/page-pagination.js";
import { ok, type Result } from "../shared/result.js";
import { DEFAULT_SUPPRESSION_PAGE_SIZE, type ListSuppressionsQuery } from "./commands.js";
import type { SuppressionQueries } from "./suppression-queries.js";
import { suppressionView, type SuppressionView } from "./view.js";

export interface SuppressionPage {
  readonly suppressions: SuppressionView[];
  readonly pagination: PagePagination;
  readonly sortBy: string;
  readonly sortOrder: "asc" | "desc";
}

/** The company's suppression list, a page at a time: newest first unless asked otherwise. */
export class ListSuppressions {
  constructor(private readonly queries: SuppressionQueries) {}

  execute = async (actor: Actor, query: ListSuppressionsQuery): Promise<Result<SuppressionPage>> => {
    const { page, limit } = readPage(query, DEFAULT_SUPPRESSION_PAGE_SIZE);
    const sort = query.sort ?? "suppressedAt";
    const order = query.order ?? (sort === "suppressedAt" ? "desc" : "asc");
    const search = query.search?.trim() || undefined;
    const { suppressions, total } = await this.queries.search(actor.companyId, { search, page, limit, sort, order });
    return ok({
      suppressions: suppressions.map(suppressionView),
      pagination: pagePagination(page, limit, total),
      sortBy: sort,
      sortOrder: order,
    });
  };
}
