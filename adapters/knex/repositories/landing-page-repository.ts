import * as t from "io-ts";
import type { Knex } from "knex";
import { LANDING_PAGE_STATUSES, LANDING_PAGE_TEMPLATES, type LandingContent, type LandingPage } from "../../../core/landing-pages/model.js";
import type { LandingPageRepository } from "../../../core/landing-pages/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { hourOf, type LandingHour } from "../../../core/landing-pages/page-stats.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { isUniqueViolation } from "../unique-violation.js";

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

const HOURS = "landing_page_hourly_stats";

const HourRow = t.type({ hour: DbDate, views: DbInteger, bot_views: DbInteger, conversions: DbInteger });

type HourCounter = "views" | "bot_views" | "conversions";

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

  async countView(companyId: string, landingPageId: string, at: Date, visitor: "person" | "bot"): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const published = trx("landing_pages").where({ company_id: companyId, id: landingPageId, status: "published" });
      const counted = visitor === "person" ? (await published.increment("view_count", 1)) > 0 : (await published.first("id")) !== undefined;
      if (counted) await addToHour(trx, companyId, landingPageId, at, visitor === "person" ? "views" : "bot_views");
    });
  }

  async countConversion(companyId: string, landingPageId: string, at: Date): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const counted =
        (await trx("landing_pages").where({ company_id: companyId, id: landingPageId, status: "published" }).increment("conversion_count", 1)) > 0;
      if (counted) await addToHour(trx, companyId, landingPageId, at, "conversions");
      return counted;
    });
  }

  async hours(companyId: string, landingPageId: string, from: Date, to: Date): Promise<LandingHour[]> {
    const rows = await this.knex(HOURS)
      .where({ company_id: companyId, landing_page_id: landingPageId })
      .andWhere("hour", ">=", toDbDate(from))
      .andWhere("hour", "<=", toDbDate(to))
      .orderBy("hour")
      .select("hour", "views", "bot_views", "conversions");
    return rows.map((row) => {
      const r = decodeRow(HourRow, row, HOURS);
      return { hour: r.hour, views: r.views, botViews: r.bot_views, conversions: r.conversions };
    });
  }
}

/** One more of `counter` in the page's row for the hour of `at`, made when the hour has none yet. */
async function addToHour(db: Knex.Transaction, companyId: string, landingPageId: string, at: Date, counter: HourCounter): Promise<void> {
  await db(HOURS)
    .insert({ landing_page_id: landingPageId, company_id: companyId, hour: toDbDate(hourOf(at)), views: 0, bot_views: 0, conversions: 0, [counter]: 1 })
    .onConflict(["landing_page_id", "hour"])
    .merge({ [counter]: db.raw("?? + 1", [`${HOURS}.${counter}`]) });
}
