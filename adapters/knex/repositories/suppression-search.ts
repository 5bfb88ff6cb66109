import * as t from "io-ts";
import type { Knex } from "knex";
import { SUPPRESSION_REASONS, type Suppression, type SuppressionReason } from "../../../core/suppressions/model.js";
import type { SuppressionQueries, SuppressionSearch, SuppressionSort } from "../../../core/suppressions/suppression-search.js";
import { DbDate, DbInteger, decodeRow } from "../row-codecs.js";

const SuppressionRow = t.type({
  id: t.string,
  company_id: t.string,
  email: t.string,
  reason: t.keyof(Object.fromEntries(SUPPRESSION_REASONS.map((reason) => [reason, null])) as Record<SuppressionReason, null>),
  email_send_id: t.union([t.string, t.null]),
  created_at: DbDate,
});

const COLUMN_OF: Record<SuppressionSort, string> = { suppressedAt: "created_at", email: "email", status: "reason" };

/** Escapes LIKE wildcards so a search for `a_b` finds only `a_b`. */
const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Pages through `suppressions` (its (company_id, email) key serves the search). */
export class KnexSuppressionSearch implements SuppressionQueries {
  constructor(private readonly knex: Knex) {}

  async search(companyId: string, query: SuppressionSearch): Promise<{ suppressions: Suppression[]; total: number }> {
    const base = this.knex("suppressions").where({ company_id: companyId });
    if (query.search) base.andWhereRaw("email like ? escape '\\'", [likePattern(query.search)]);
    const [counted] = await base.clone().count({ total: "*" });
    const column = COLUMN_OF[query.sort];
    const rows = await base
      .clone()
      .orderBy([{ column, order: query.order }, { column: "id", order: query.order }])
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    return {
      total: decodeRow(t.type({ total: DbInteger }), counted, "suppressions").total,
      suppressions: rows.map((row) => {
        const r = decodeRow(SuppressionRow, row, "suppressions");
        return { id: r.id, companyId: r.company_id, email: r.email, reason: r.reason, emailSendId: r.email_send_id, createdAt: r.created_at };
      }),
    };
  }
}
