import * as t from "io-ts";
import type { Knex } from "knex";
import type { TransactionalEmail } from "../../../core/transactional/model.js";
import type { SlugWrite, TransactionalEmailRepository } from "../../../core/transactional/ports.js";
import { DbBoolean, DbDate, DbNullableDate, decodeRow, toDbDate } from "../row-codecs.js";

const TransactionalEmailRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  slug: t.string,
  template_id: t.string,
  enabled: DbBoolean,
  deleted_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

function toTransactionalEmail(row: unknown): TransactionalEmail {
  const r = decodeRow(TransactionalEmailRow, row, "transactional_emails");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    slug: r.slug,
    templateId: r.template_id,
    enabled: r.enabled,
    deletedAt: r.deleted_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The partial unique index transactional_emails_slug (live rows only) decides slug clashes. */
const isSlugClash = (error: unknown): boolean => /unique|duplicate key/i.test(String((error as Error)?.message ?? error));

export class KnexTransactionalEmailRepository implements TransactionalEmailRepository {
  constructor(private readonly knex: Knex) {}

  private live(companyId: string) {
    return this.knex("transactional_emails").where({ company_id: companyId }).whereNull("deleted_at");
  }

  async list(companyId: string, filter: { readonly search?: string | undefined; readonly enabled?: boolean | undefined }): Promise<TransactionalEmail[]> {
    const query = this.live(companyId);
    if (filter.enabled !== undefined) query.andWhere({ enabled: filter.enabled });
    if (filter.search) {
      const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.andWhere((q) => q.whereRaw("lower(name) like ? escape '\\'", [pattern]).orWhereRaw("lower(slug) like ? escape '\\'", [pattern]));
    }
    const rows = await query.orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ]);
    return rows.map(toTransactionalEmail);
  }

  async findByIdOrSlug(companyId: string, idOrSlug: string): Promise<TransactionalEmail | null> {
    const [byId] = await this.live(companyId).andWhere({ id: idOrSlug });
    if (byId) return toTransactionalEmail(byId);
    return this.findBySlug(companyId, idOrSlug);
  }

  async findBySlug(companyId: string, slug: string): Promise<TransactionalEmail | null> {
    const [row] = await this.live(companyId).andWhere({ slug });
    return row ? toTransactionalEmail(row) : null;
  }

  async insert(email: TransactionalEmail): Promise<SlugWrite> {
    try {
      await this.knex("transactional_emails").insert({
        id: email.id,
        company_id: email.companyId,
        name: email.name,
        slug: email.slug,
        template_id: email.templateId,
        enabled: email.enabled,
        deleted_at: null,
        created_at: toDbDate(email.createdAt),
        updated_at: toDbDate(email.updatedAt),
      });
      return "saved";
    } catch (error) {
      if (isSlugClash(error)) return "duplicate_slug";
      throw error;
    }
  }

  async update(email: TransactionalEmail): Promise<SlugWrite> {
    try {
      const changed = await this.live(email.companyId)
        .andWhere({ id: email.id })
        .update({ name: email.name, slug: email.slug, enabled: email.enabled, updated_at: toDbDate(email.updatedAt) });
      return changed > 0 ? "saved" : "not_found";
    } catch (error) {
      if (isSlugClash(error)) return "duplicate_slug";
      throw error;
    }
  }

  async softDelete(companyId: string, id: string, at: Date): Promise<boolean> {
    const changed = await this.live(companyId)
      .andWhere({ id })
      .update({ deleted_at: toDbDate(at), updated_at: toDbDate(at) });
    return changed > 0;
  }
}
