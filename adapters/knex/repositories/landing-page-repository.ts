import * as t from "io-ts";
import type { Knex } from "knex";
import { LANDING_PAGE_STATUSES, LANDING_PAGE_TEMPLATES, type LandingContent, type LandingPage } from "../../../core/landing-pages/model.js";
import type { LandingPageRepository } from "../../../core/landing-pages/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

/** Content is checked on its way in; here only its frame is, so a bad row still fails loudly. */
const StoredContent = t.type({
  version: t.number,
  template: oneOf(LANDING_PAGE_TEMPLATES),
  seo: t.UnknownRecord,
  theme: t.UnknownRecord,
  blocks: t.UnknownArray,
});

const LandingPageRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  slug: t.string,
  status: oneOf(LANDING_PAGE_STATUSES),
  content: dbJson(StoredContent),
  view_count: DbInteger,
  conversion_count: DbInteger,
  published_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

function toPage(row: unknown): LandingPage {
  const r = decodeRow(LandingPageRow, row, "landing_pages");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    slug: r.slug,
    status: r.status,
    content: r.content as unknown as LandingContent,
    viewCount: r.view_count,
    conversionCount: r.conversion_count,
    publishedAt: r.published_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
};

const columns = (page: LandingPage) => ({
  name: page.name,
  slug: page.slug,
  status: page.status,
  content: JSON.stringify(page.content),
  published_at: toDbDate(page.publishedAt),
  updated_at: toDbDate(page.updatedAt),
});

/** `landing_pages`: the slug is unique per company; views and conversions are counters moved in place. */
export class KnexLandingPageRepository implements LandingPageRepository {
  constructor(private readonly knex: Knex) {}

  async list(companyId: string): Promise<LandingPage[]> {
    return (
      await this.knex("landing_pages")
        .where({ company_id: companyId })
        .orderBy([
          { column: "created_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
    ).map(toPage);
  }

  async find(companyId: string, landingPageId: string): Promise<LandingPage | null> {
    const [row] = await this.knex("landing_pages").where({ company_id: companyId, id: landingPageId });
    return row ? toPage(row) : null;
  }

  async findPublished(companyId: string, slug: string): Promise<LandingPage | null> {
    const [row] = await this.knex("landing_pages").where({ company_id: companyId, slug, status: "published" });
    return row ? toPage(row) : null;
  }

  async slugTaken(companyId: string, slug: string): Promise<boolean> {
    return (await this.knex("landing_pages").where({ company_id: companyId, slug }).first("id")) !== undefined;
  }

  async insert(page: LandingPage): Promise<"inserted" | "slug_taken"> {
    try {
      await this.knex("landing_pages").insert({
        id: page.id,
        company_id: page.companyId,
        view_count: page.viewCount,
        conversion_count: page.conversionCount,
        created_at: toDbDate(page.createdAt),
        ...columns(page),
      });
      return "inserted";
    } catch (error) {
      if (isUniqueViolation(error)) return "slug_taken";
      throw error;
    }
  }

  async update(page: LandingPage): Promise<"updated" | "not_found" | "slug_taken"> {
    try {
      const count = await this.knex("landing_pages").where({ company_id: page.companyId, id: page.id }).update(columns(page));
      return count > 0 ? "updated" : "not_found";
    } catch (error) {
      if (isUniqueViolation(error)) return "slug_taken";
      throw error;
    }
  }

  async delete(companyId: string, landingPageId: string): Promise<boolean> {
    return (await this.knex("landing_pages").where({ company_id: companyId, id: landingPageId }).delete()) > 0;
  }

  async countView(companyId: string, landingPageId: string): Promise<void> {
    await this.knex("landing_pages").where({ company_id: companyId, id: landingPageId, status: "published" }).increment("view_count", 1);
  }

  async countConversion(companyId: string, landingPageId: string): Promise<boolean> {
    return (await this.knex("landing_pages").where({ company_id: companyId, id: landingPageId, status: "published" }).increment("conversion_count", 1)) > 0;
  }
}
