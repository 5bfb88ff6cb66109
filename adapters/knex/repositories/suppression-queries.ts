import * as t from "io-ts";
import type { Knex } from "knex";
import type { Suppression } from "../../../core/suppressions/model.js";
import type { SuppressionQueries, SuppressionSearch, SuppressionSort } from "../../../core/suppressions/suppression-queries.js";
import { DbInteger, decodeRow } from "../row-codecs.js";
import { toSuppression } from "./suppression-repository.js";

const COLUMN_OF: Record<SuppressionSort, string> = { suppressedAt: "created_at", email: "email", status: "reason" };

/** Escapes LIKE wildcards so a search for `a_b` finds only `a_b`. */
const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Pages through `suppressions` (its (company_id, email) key serves the search). */
export class KnexSuppressionQueries implements SuppressionQueries {
  constructor(private readonly knex: Knex) {}

  async search(companyId: string, query: SuppressionSearch): Promise<{ suppressions: Suppression[]; total: number }> {
    const base = this.knex("suppressions").where({ company_id: companyId });
    if (query.search) base.andWhereRaw("email like ? escape '\\'", [likePattern(query.search)]);
    const [counted] = await base.clone().count({ total: "*" });
    const column = COLUMN_OF[query.sort];
    const rows = await base
      .clone()
      .orderBy([
        { column, order: query.order },
        { column: "id", order: query.order },
      ])
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    return {
      total: decodeRow(t.type({ total: DbInteger }), counted, "suppressions").total,
      suppressions: rows.map(toSuppression),
    };
  }
}
