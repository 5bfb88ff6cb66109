import * as t from "io-ts";
import type { Knex } from "knex";
import { EmailBlocks } from "../../../core/emails/blocks.js";
import type { EmailBody, Template } from "../../../core/emails/model.js";
import type { TemplatePage, TemplateRepository } from "../../../core/emails/ports.js";
import { isPostgres } from "../connection.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const TemplateRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  subject: t.string,
  preview_text: t.union([t.string, t.null]),
  html: t.union([t.string, t.null]),
  blocks: t.union([t.null, dbJson(EmailBlocks)]),
  labels: dbJson(t.array(t.string)),
  deleted_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

function toTemplate(row: unknown): Template {
  const r = decodeRow(TemplateRow, row, "templates");
  const body: EmailBody | null = r.blocks ? { blocks: r.blocks } : r.html !== null ? { html: r.html } : null;
  if (!body) throw new Error(`Unreadable templates row: ${r.id} has neither html nor blocks`);
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    subject: r.subject,
    previewText: r.preview_text,
    body,
    labels: r.labels,
    deletedAt: r.deleted_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The columns a template's content writes: exactly one of html and blocks holds the body. */
const contentColumns = (template: Template) => ({
  name: template.name,
  subject: template.subject,
  preview_text: template.previewText,
  html: "html" in template.body ? template.body.html : null,
  blocks: "blocks" in template.body ? JSON.stringify(template.body.blocks) : null,
  labels: JSON.stringify(template.labels),
  updated_at: toDbDate(template.updatedAt),
});

/** `templates`; deleted rows stay for what points at them and are hidden from the API. */
export class KnexTemplateRepository implements TemplateRepository {
  constructor(private readonly knex: Knex) {}

  private live(companyId: string) {
    return this.knex("templates").where({ company_id: companyId }).whereNull("deleted_at");
  }

  private withLabel(query: Knex.QueryBuilder, label: string | undefined): Knex.QueryBuilder {
    if (label === undefined) return query;
    return isPostgres(this.knex)
      ? query.whereRaw("labels @> ?::jsonb", [JSON.stringify([label])])
      : query.whereRaw("exists (select 1 from json_each(templates.labels) where json_each.value = ?)", [label]);
  }

  async list(companyId: string, filter: { label?: string | undefined; limit: number; offset: number }): Promise<TemplatePage> {
    const rows = await this.withLabel(this.live(companyId), filter.label)
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(filter.limit)
      .offset(filter.offset);
    const [counted] = await this.withLabel(this.live(companyId), filter.label).count({ total: "*" });
    return { templates: rows.map(toTemplate), total: decodeRow(t.type({ total: DbInteger }), counted, "templates").total };
  }

  async find(companyId: string, templateId: string): Promise<Template | null> {
    const [row] = await this.live(companyId).where({ id: templateId });
    return row ? toTemplate(row) : null;
  }

  async findIncludingDeleted(companyId: string, templateId: string): Promise<Template | null> {
    const [row] = await this.knex("templates").where({ company_id: companyId, id: templateId });
    return row ? toTemplate(row) : null;
  }

  async findManyIncludingDeleted(companyId: string, templateIds: readonly string[]): Promise<Template[]> {
    if (templateIds.length === 0) return [];
    const rows = await this.knex("templates")
      .where({ company_id: companyId })
      .whereIn("id", [...new Set(templateIds)]);
    return rows.map(toTemplate);
  }

  async insert(template: Template): Promise<void> {
    await this.knex("templates").insert({
      id: template.id,
      company_id: template.companyId,
      ...contentColumns(template),
      deleted_at: toDbDate(template.deletedAt),
      created_at: toDbDate(template.createdAt),
    });
  }

  async update(template: Template): Promise<boolean> {
    return (await this.live(template.companyId).where({ id: template.id }).update(contentColumns(template))) > 0;
  }

  async softDelete(companyId: string, templateId: string, at: Date): Promise<boolean> {
    return (
      (await this.live(companyId)
        .where({ id: templateId })
        .update({ deleted_at: toDbDate(at), updated_at: toDbDate(at) })) > 0
    );
  }
}
