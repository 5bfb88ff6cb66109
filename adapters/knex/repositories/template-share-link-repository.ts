import * as t from "io-ts";
import type { Knex } from "knex";
import type { TemplateShareLinkRepository } from "../../../core/emails/ports.js";
import type { TemplateShareLink } from "../../../core/emails/share-link.js";
import { DbDate, decodeRow, toDbDate } from "../row-codecs.js";

const ShareLinkRow = t.type({ template_id: t.string, company_id: t.string, token: t.string, created_at: DbDate });

function toShareLink(row: unknown): TemplateShareLink {
  const r = decodeRow(ShareLinkRow, row, "template_share_links");
  return { templateId: r.template_id, companyId: r.company_id, token: r.token, createdAt: r.created_at };
}

/** `template_share_links`: at most one row (the live link) per template. */
export class KnexTemplateShareLinkRepository implements TemplateShareLinkRepository {
  constructor(private readonly knex: Knex) {}

  async find(companyId: string, templateId: string): Promise<TemplateShareLink | null> {
    const [row] = await this.knex("template_share_links").where({ company_id: companyId, template_id: templateId });
    return row ? toShareLink(row) : null;
  }

  async findByToken(token: string): Promise<TemplateShareLink | null> {
    const [row] = await this.knex("template_share_links").where({ token });
    return row ? toShareLink(row) : null;
  }

  async insert(link: TemplateShareLink): Promise<boolean> {
    const inserted = await this.knex("template_share_links")
      .insert({ template_id: link.templateId, company_id: link.companyId, token: link.token, created_at: toDbDate(link.createdAt) })
      .onConflict("template_id")
      .ignore()
      .returning("template_id");
    return inserted.length > 0;
  }

  async delete(companyId: string, templateId: string): Promise<boolean> {
    return (await this.knex("template_share_links").where({ company_id: companyId, template_id: templateId }).delete()) > 0;
  }
}
