import * as t from "io-ts";
import type { Knex } from "knex";
import { EmailBlocks } from "../../../core/emails/blocks.js";
import { LOCALIZATION_SOURCES, type TemplateLocalization } from "../../../core/emails/localization.js";
import type { EmailBody } from "../../../core/emails/model.js";
import type { TemplateLocalizationRepository } from "../../../core/emails/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const LocalizationRow = t.type({
  id: t.string,
  company_id: t.string,
  template_id: t.string,
  locale: t.string,
  subject: t.string,
  preview_text: t.union([t.string, t.null]),
  html: t.union([t.string, t.null]),
  blocks: t.union([t.null, dbJson(EmailBlocks)]),
  source: oneOf(LOCALIZATION_SOURCES),
  source_fingerprint: t.string,
  created_at: DbDate,
  updated_at: DbDate,
});

function toLocalization(row: unknown): TemplateLocalization {
  const r = decodeRow(LocalizationRow, row, "template_localizations");
  const body: EmailBody | null = r.blocks ? { blocks: r.blocks } : r.html !== null ? { html: r.html } : null;
  if (!body) throw new Error(`Unreadable template_localizations row: ${r.id} has neither html nor blocks`);
  return {
    id: r.id,
    companyId: r.company_id,
    templateId: r.template_id,
    locale: r.locale,
    subject: r.subject,
    previewText: r.preview_text,
    body,
    source: r.source,
    sourceFingerprint: r.source_fingerprint,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** `template_localizations`: one row per template and locale. */
export class KnexTemplateLocalizationRepository implements TemplateLocalizationRepository {
  constructor(private readonly knex: Knex) {}

  async list(companyId: string, templateId: string): Promise<TemplateLocalization[]> {
    const rows = await this.knex("template_localizations").where({ company_id: companyId, template_id: templateId }).orderBy("locale");
    return rows.map(toLocalization);
  }

  async save(localization: TemplateLocalization): Promise<TemplateLocalization> {
    const content = {
      subject: localization.subject,
      preview_text: localization.previewText,
      html: "html" in localization.body ? localization.body.html : null,
      blocks: "blocks" in localization.body ? JSON.stringify(localization.body.blocks) : null,
      source: localization.source,
      source_fingerprint: localization.sourceFingerprint,
      updated_at: toDbDate(localization.updatedAt),
    };
    await this.knex("template_localizations")
      .insert({
        id: localization.id,
        company_id: localization.companyId,
        template_id: localization.templateId,
        locale: localization.locale,
        created_at: toDbDate(localization.createdAt),
        ...content,
      })
      .onConflict(["template_id", "locale"])
      .merge(content);
    const [row] = await this.knex("template_localizations").where({
      company_id: localization.companyId,
      template_id: localization.templateId,
      locale: localization.locale,
    });
    return toLocalization(row);
  }
}
