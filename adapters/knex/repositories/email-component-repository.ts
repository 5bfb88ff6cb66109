import * as t from "io-ts";
import type { Knex } from "knex";
import { EmailBlocks } from "../../../core/emails/blocks.js";
import { COMPONENT_TYPES, DEFAULT_SLOTS, type ComponentType, type DefaultSlot, type EmailComponent } from "../../../core/emails/model.js";
import type { ComponentWrite, EmailComponentRepository } from "../../../core/emails/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbDate, DbInteger, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";
import { isUniqueViolation } from "../unique-violation.js";

const ComponentRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  description: t.union([t.string, t.null]),
  blocks: dbJson(EmailBlocks),
  component_type: oneOf<ComponentType>(COMPONENT_TYPES),
  default_slot: t.union([t.null, oneOf<DefaultSlot>(DEFAULT_SLOTS)]),
  version: DbInteger,
  created_at: DbDate,
  updated_at: DbDate,
});

function toComponent(row: unknown): EmailComponent {
  const r = decodeRow(ComponentRow, row, "email_components");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    description: r.description,
    blocks: r.blocks,
    componentType: r.component_type,
    defaultSlot: r.default_slot,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const columns = (component: EmailComponent) => ({
  name: component.name,
  description: component.description,
  blocks: JSON.stringify(component.blocks),
  component_type: component.componentType,
  default_slot: component.defaultSlot,
  version: component.version,
  updated_at: toDbDate(component.updatedAt),
});

/** `email_components`: names unique per company, at most one default per slot. */
export class KnexEmailComponentRepository implements EmailComponentRepository {
  constructor(private readonly knex: Knex) {}

  async list(companyId: string, filter: { type?: ComponentType | undefined; defaultsOnly?: boolean | undefined }): Promise<EmailComponent[]> {
    const query = this.knex("email_components").where({ company_id: companyId });
    if (filter.type) query.where({ component_type: filter.type });
    if (filter.defaultsOnly) query.whereNotNull("default_slot");
    return (await query.orderBy([{ column: "name" }, { column: "id" }])).map(toComponent);
  }

  async find(companyId: string, componentId: string): Promise<EmailComponent | null> {
    const [row] = await this.knex("email_components").where({ company_id: companyId, id: componentId });
    return row ? toComponent(row) : null;
  }

  /** Read on every render (the default footer): cached on SQLite until the database changes. */
  findDefault(companyId: string, slot: DefaultSlot): Promise<EmailComponent | null> {
    return SqliteReadCache.for(this.knex).read(`default-component:${companyId}:${slot}`, ["email_components"], async () => {
      const [row] = await this.knex("email_components").where({ company_id: companyId, default_slot: slot });
      return row ? toComponent(row) : null;
    });
  }

  /** A unique violation is a taken name when a row of that name exists; anything else is a real failure. */
  private async nameTaken(component: EmailComponent, error: unknown): Promise<ComponentWrite> {
    if (!isUniqueViolation(error)) throw error;
    const [other] = await this.knex("email_components").where({ company_id: component.companyId, name: component.name }).whereNot({ id: component.id });
    if (!other) throw error;
    return "duplicate_name";
  }

  async insert(component: EmailComponent): Promise<ComponentWrite> {
    try {
      await this.knex("email_components").insert({
        id: component.id,
        company_id: component.companyId,
        ...columns(component),
        created_at: toDbDate(component.createdAt),
      });
      return "saved";
    } catch (error) {
      return this.nameTaken(component, error);
    }
  }

  async update(component: EmailComponent): Promise<ComponentWrite> {
    try {
      const changed = await this.knex("email_components").where({ company_id: component.companyId, id: component.id }).update(columns(component));
      return changed > 0 ? "saved" : "not_found";
    } catch (error) {
      return this.nameTaken(component, error);
    }
  }

  async delete(companyId: string, componentId: string): Promise<boolean> {
    return (await this.knex("email_components").where({ company_id: companyId, id: componentId }).delete()) > 0;
  }
}
