import * as t from "io-ts";
import type { Knex } from "knex";
import type { CampaignShareLink, CampaignShareLinkRepository } from "../../../core/campaigns/campaign-share-link.js";
import { DbDate, decodeRow, toDbDate } from "../row-codecs.js";

const ShareLinkRow = t.type({ campaign_id: t.string, company_id: t.string, nonce: t.string, created_at: DbDate });

function toShareLink(row: unknown): CampaignShareLink {
  const r = decodeRow(ShareLinkRow, row, "campaign_share_links");
  return { campaignId: r.campaign_id, companyId: r.company_id, nonce: r.nonce, createdAt: r.created_at };
}

/** `campaign_share_links`: at most one row (the live link) per campaign, gone with the campaign. */
export class KnexCampaignShareLinkRepository implements CampaignShareLinkRepository {
  constructor(private readonly knex: Knex) {}

  async find(companyId: string, campaignId: string): Promise<CampaignShareLink | null> {
    const [row] = await this.knex("campaign_share_links").where({ company_id: companyId, campaign_id: campaignId });
    return row ? toShareLink(row) : null;
  }

  async findLive(campaignId: string): Promise<CampaignShareLink | null> {
    const [row] = await this.knex("campaign_share_links").where({ campaign_id: campaignId });
    return row ? toShareLink(row) : null;
  }

  async insert(link: CampaignShareLink): Promise<boolean> {
    const inserted = await this.knex("campaign_share_links")
      .insert({ campaign_id: link.campaignId, company_id: link.companyId, nonce: link.nonce, created_at: toDbDate(link.createdAt) })
      .onConflict("campaign_id")
      .ignore()
      .returning("campaign_id");
    return inserted.length > 0;
  }

  async delete(companyId: string, campaignId: string): Promise<boolean> {
    return (await this.knex("campaign_share_links").where({ company_id: companyId, campaign_id: campaignId }).delete()) > 0;
  }
}
