import * as t from "io-ts";
import type { Knex } from "knex";
import { LANDING_DOMAIN_STATUSES, type LandingDomain } from "../../../core/landing-pages/custom-domain.js";
import type { LandingDomainRepository } from "../../../core/landing-pages/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";
import { isUniqueViolation } from "../unique-violation.js";

const CheckCodec = t.type({
  purpose: oneOf(["ownership", "routing"] as const),
  status: oneOf(["verified", "missing", "mismatch", "unreachable"] as const),
  problem: t.union([t.string, t.null]),
  found: t.array(t.string),
});

const LandingDomainRow = t.type({
  id: t.string,
  company_id: t.string,
  landing_page_id: t.union([t.string, t.null]),
  domain: t.string,
  verification_token: t.string,
  status: oneOf(LANDING_DOMAIN_STATUSES),
  last_check: t.union([t.null, dbJson(t.array(CheckCodec))]),
  verified_at: DbNullableDate,
  last_checked_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

function toDomain(row: unknown): LandingDomain {
  const r = decodeRow(LandingDomainRow, row, "landing_page_domains");
  return {
    id: r.id,
    companyId: r.company_id,
    landingPageId: r.landing_page_id,
    domain: r.domain,
    verificationToken: r.verification_token,
    status: r.status,
    lastCheck: r.last_check,
    verifiedAt: r.verified_at,
    lastCheckedAt: r.last_checked_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const stateColumns = (domain: LandingDomain) => ({
  status: domain.status,
  last_check: domain.lastCheck ? JSON.stringify(domain.lastCheck) : null,
  verified_at: toDbDate(domain.verifiedAt),
  last_checked_at: toDbDate(domain.lastCheckedAt),
  updated_at: toDbDate(domain.updatedAt),
});

/** `landing_page_domains`. The Host lookup of every request to a name that is not the service's own is a cached read on SQLite. */
export class KnexLandingDomainRepository implements LandingDomainRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
  }

  async forTarget(companyId: string, landingPageId: string | null): Promise<LandingDomain | null> {
    const query = this.knex("landing_page_domains").where({ company_id: companyId });
    const [row] = await (landingPageId === null ? query.whereNull("landing_page_id") : query.andWhere({ landing_page_id: landingPageId }));
    return row ? toDomain(row) : null;
  }

  async verifiedByName(domain: string): Promise<LandingDomain | null> {
    return this.cache.read(`landing-domain:${domain}`, ["landing_page_domains"], async () => {
      // A literal status, not a parameter: SQLite uses the partial index landing_page_domains_verified only for the same term.
      const [row] = await this.knex("landing_page_domains").where({ domain }).whereRaw("status = 'verified'");
      return row ? toDomain(row) : null;
    });
  }

  async replace(domain: LandingDomain): Promise<"saved" | "taken"> {
    try {
      await this.knex.transaction(async (trx) => {
        const earlier = trx("landing_page_domains").where({ company_id: domain.companyId });
        await (domain.landingPageId === null ? earlier.whereNull("landing_page_id") : earlier.andWhere({ landing_page_id: domain.landingPageId })).delete();
        await trx("landing_page_domains").insert({
          id: domain.id,
          company_id: domain.companyId,
          landing_page_id: domain.landingPageId,
          domain: domain.domain,
          verification_token: domain.verificationToken,
          created_at: toDbDate(domain.createdAt),
          ...stateColumns(domain),
        });
      });
      return "saved";
    } catch (error) {
      if (isUniqueViolation(error)) return "taken";
      throw error;
    }
  }

  async update(domain: LandingDomain): Promise<"updated" | "taken"> {
    try {
      await this.knex("landing_page_domains").where({ company_id: domain.companyId, id: domain.id }).update(stateColumns(domain));
      return "updated";
    } catch (error) {
      if (isUniqueViolation(error)) return "taken";
      throw error;
    }
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return (await this.knex("landing_page_domains").where({ company_id: companyId, id }).delete()) > 0;
  }
}
