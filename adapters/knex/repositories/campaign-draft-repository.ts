import type { Knex } from "knex";
import type { CampaignDraft, CampaignDraftRepository } from "../../../core/migrations/ports.js";
import { toDbDate } from "../row-codecs.js";

/** Draft campaigns made by migrations, in the `campaigns` table. */
export class KnexCampaignDraftRepository implements CampaignDraftRepository {
  constructor(private readonly knex: Knex) {}

  async exists(companyId: string, id: string): Promise<boolean> {
    return Boolean(await this.knex("campaigns").where({ company_id: companyId, id }).first("id"));
  }

  async insert(draft: CampaignDraft): Promise<void> {
    const at = toDbDate(draft.createdAt);
    await this.knex("campaigns")
      .insert({
        id: draft.id,
        company_id: draft.companyId,
        name: draft.name,
        subject: draft.subject,
        preview_text: draft.previewText,
        html: draft.html,
        status: "draft",
        source: draft.source,
        external_id: draft.externalId,
        created_at: at,
        updated_at: at,
      })
      .onConflict("id")
      .ignore();
  }
}
