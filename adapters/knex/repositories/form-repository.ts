import * as t from "io-ts";
import type { Knex } from "knex";
import { DUPLICATE_STRATEGIES } from "../../../core/subscribers/model.js";
import { FORM_BLOCK_TYPES, FORM_DENSITIES, FORM_STATUSES, type SavedForm } from "../../../core/forms/model.js";
import type { FormRepository } from "../../../core/forms/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbBoolean, DbDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const StoredTheme = t.type({
  accentColor: t.string,
  backgroundColor: t.string,
  textColor: t.string,
  mutedTextColor: t.string,
  cardColor: t.string,
  borderColor: t.string,
  borderRadius: t.number,
  headingFontFamily: t.string,
  bodyFontFamily: t.string,
  density: oneOf(FORM_DENSITIES),
});

const StoredBlock = t.intersection([t.type({ type: oneOf(FORM_BLOCK_TYPES), text: t.string }), t.partial({ placeholder: t.string, required: t.boolean })]);

const FormRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  status: oneOf(FORM_STATUSES),
  list_ids: dbJson(t.array(t.string)),
  tag_ids: dbJson(t.array(t.string)),
  duplicate_strategy: oneOf(DUPLICATE_STRATEGIES),
  success_message: t.string,
  redirect_url: t.union([t.string, t.null]),
  headline: t.union([t.string, t.null]),
  description: t.union([t.string, t.null]),
  button_text: t.string,
  show_first_name: DbBoolean,
  show_last_name: DbBoolean,
  theme: dbJson(StoredTheme),
  blocks: t.union([t.null, dbJson(t.array(StoredBlock))]),
  created_at: DbDate,
  updated_at: DbDate,
});

function toForm(row: unknown): SavedForm {
  const r = decodeRow(FormRow, row, "forms");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    status: r.status,
    listIds: r.list_ids,
    tagIds: r.tag_ids,
    duplicateStrategy: r.duplicate_strategy,
    successMessage: r.success_message,
    redirectUrl: r.redirect_url,
    headline: r.headline,
    description: r.description,
    buttonText: r.button_text,
    showFirstName: r.show_first_name,
    showLastName: r.show_last_name,
    theme: r.theme,
    customBlocks: r.blocks,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Every column but the keys and created_at. */
const columns = (form: SavedForm) => ({
  name: form.name,
  status: form.status,
  list_ids: JSON.stringify(form.listIds),
  tag_ids: JSON.stringify(form.tagIds),
  duplicate_strategy: form.duplicateStrategy,
  success_message: form.successMessage,
  redirect_url: form.redirectUrl,
  headline: form.headline,
  description: form.description,
  button_text: form.buttonText,
  show_first_name: form.showFirstName,
  show_last_name: form.showLastName,
  theme: JSON.stringify(form.theme),
  blocks: form.customBlocks ? JSON.stringify(form.customBlocks) : null,
  updated_at: toDbDate(form.updatedAt),
});

/** `forms`: the lists and tags are JSON arrays of IDs, checked when saved and again when used. */
export class KnexFormRepository implements FormRepository {
  constructor(private readonly knex: Knex) {}

  async list(companyId: string): Promise<SavedForm[]> {
    return (
      await this.knex("forms")
        .where({ company_id: companyId })
        .orderBy([
          { column: "created_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
    ).map(toForm);
  }

  async find(companyId: string, formId: string): Promise<SavedForm | null> {
    const [row] = await this.knex("forms").where({ company_id: companyId, id: formId });
    return row ? toForm(row) : null;
  }

  async findPublic(formId: string): Promise<SavedForm | null> {
    const [row] = await this.knex("forms").where({ id: formId });
    return row ? toForm(row) : null;
  }

  async insert(form: SavedForm): Promise<void> {
    await this.knex("forms").insert({ id: form.id, company_id: form.companyId, created_at: toDbDate(form.createdAt), ...columns(form) });
  }

  async update(form: SavedForm): Promise<boolean> {
    return (await this.knex("forms").where({ company_id: form.companyId, id: form.id }).update(columns(form))) > 0;
  }
}
