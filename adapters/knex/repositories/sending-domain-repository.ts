import * as t from "io-ts";
import type { Knex } from "knex";
import { SENDING_DOMAIN_STATUSES, type SendingDomainStatus } from "../../../core/company/model.js";
import type { DomainVerification, SendingDomainRepository } from "../../../core/company/ports.js";
import { RECORD_PURPOSES, type DomainCheck, type RecordPurpose, type SendingDomain, type VerifiedBy } from "../../../core/company/sending-domain.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const RecordCheckCodec = t.type({
  purpose: oneOf<RecordPurpose>(RECORD_PURPOSES),
  status: oneOf(["verified", "missing", "mismatch", "unreachable"] as const),
  problem: t.union([t.string, t.null]),
  found: t.array(t.string),
});
const DomainCheckCodec: t.Type<DomainCheck, unknown, unknown> = t.type({ checkedAt: t.string, records: t.array(RecordCheckCodec) }) as never;

const SendingDomainRow = t.type({
  id: t.string,
  company_id: t.string,
  domain: t.string,
  status: oneOf<SendingDomainStatus>(SENDING_DOMAIN_STATUSES),
  verified_by: t.union([oneOf<VerifiedBy>(["dns", "operator"]), t.null]),
  dkim_selector: t.string,
  dkim_public_key: t.string,
  dkim_private_key_sealed: t.string,
  last_check: t.union([t.null, dbJson(DomainCheckCodec)]),
  verified_at: DbNullableDate,
  last_checked_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

function toSendingDomain(row: unknown): SendingDomain {
  const r = decodeRow(SendingDomainRow, row, "sending_domains");
  return {
    id: r.id,
    companyId: r.company_id,
    domain: r.domain,
    status: r.status,
    verifiedBy: r.verified_by,
    dkimSelector: r.dkim_selector,
    dkimPublicKey: r.dkim_public_key,
    dkimPrivateKeySealed: r.dkim_private_key_sealed,
    lastCheck: r.last_check,
    verifiedAt: r.verified_at,
    lastCheckedAt: r.last_checked_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** `sending_domains`; sender profiles point at them by `domain_id`. */
export class KnexSendingDomainRepository implements SendingDomainRepository {
  constructor(private readonly knex: Knex) {}

  async list(companyId: string): Promise<SendingDomain[]> {
    return (await this.knex("sending_domains").where({ company_id: companyId }).orderBy("domain")).map(toSendingDomain);
  }

  async find(companyId: string, id: string): Promise<SendingDomain | null> {
    const [row] = await this.knex("sending_domains").where({ company_id: companyId, id });
    return row ? toSendingDomain(row) : null;
  }

  async findByName(companyId: string, domain: string): Promise<SendingDomain | null> {
    const [row] = await this.knex("sending_domains").where({ company_id: companyId, domain });
    return row ? toSendingDomain(row) : null;
  }

  async insert(domain: SendingDomain): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const inserted = await trx("sending_domains")
        .insert({
          id: domain.id,
          company_id: domain.companyId,
          domain: domain.domain,
          status: domain.status,
          verified_by: domain.verifiedBy,
          dkim_selector: domain.dkimSelector,
          dkim_public_key: domain.dkimPublicKey,
          dkim_private_key_sealed: domain.dkimPrivateKeySealed,
          last_check: domain.lastCheck ? JSON.stringify(domain.lastCheck) : null,
          verified_at: toDbDate(domain.verifiedAt),
          last_checked_at: toDbDate(domain.lastCheckedAt),
          created_at: toDbDate(domain.createdAt),
          updated_at: toDbDate(domain.updatedAt),
        })
        .onConflict(["company_id", "domain"])
        .ignore()
        .returning("id");
      if (inserted.length === 0) return false;
      // Profiles already on this address's domain (theirs was deleted and is added again) follow it.
      await trx("sender_profiles")
        .where({ company_id: domain.companyId })
        .whereNull("domain_id")
        .where("email", "like", `%@${domain.domain}`)
        .update({ domain_id: domain.id });
      return true;
    });
  }

  async update(companyId: string, id: string, verification: DomainVerification): Promise<void> {
    await this.knex("sending_domains")
      .where({ company_id: companyId, id })
      .update({
        status: verification.status,
        verified_by: verification.verifiedBy,
        verified_at: toDbDate(verification.verifiedAt),
        last_check: verification.lastCheck ? JSON.stringify(verification.lastCheck) : null,
        last_checked_at: toDbDate(verification.lastCheckedAt),
        updated_at: toDbDate(verification.at),
      });
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      // Explicit rather than relying on ON DELETE SET NULL, which SQLite applies only with foreign keys on.
      await trx("sender_profiles").where({ company_id: companyId, domain_id: id }).update({ domain_id: null });
      return (await trx("sending_domains").where({ company_id: companyId, id }).delete()) > 0;
    });
  }
}
