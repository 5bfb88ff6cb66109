import * as t from "io-ts";
import type { Knex } from "knex";
import type { CampaignAudienceQueries, NamedList } from "../../../core/campaigns/ports.js";
import type { SegmentDefinition } from "../../../core/segments/ports.js";
import { segmentQuery } from "../knex-segment-evaluator.js";
import { DbInteger, decodeRow } from "../row-codecs.js";

/**
 * The contacts of a campaign's audience who may get marketing email: the definition's members
 * (active contacts), less suppressed addresses and contacts whose double opt-in is unconfirmed.
 * The send engine reads its recipients from the same query.
 */
export function campaignRecipientsQuery(knex: Knex, definition: SegmentDefinition): Knex.QueryBuilder {
  return segmentQuery(knex, definition)
    .where("s.status", "active")
    .whereNotExists(knex("suppressions as sup").whereRaw("sup.company_id = s.company_id and sup.email = s.email"))
    .whereNotExists(knex("opt_ins as oi").whereRaw("oi.subscriber_id = s.id and oi.confirmed_at is null"));
}

export class KnexCampaignAudienceQueries implements CampaignAudienceQueries {
  constructor(private readonly knex: Knex) {}

  async listsByIds(companyId: string, listIds: readonly string[]): Promise<NamedList[]> {
    if (listIds.length === 0) return [];
    const rows = await this.knex("lists")
      .where({ company_id: companyId })
      .whereIn("id", [...new Set(listIds)])
      .select("id", "name");
    return rows.map((row) => decodeRow(t.type({ id: t.string, name: t.string }), row, "lists"));
  }

  async countRecipients(definition: SegmentDefinition): Promise<number> {
    const [row] = await campaignRecipientsQuery(this.knex, definition).count({ total: "*" });
    return decodeRow(t.type({ total: DbInteger }), row, "campaign audience").total;
  }
}
