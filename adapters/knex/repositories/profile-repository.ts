import * as t from "io-ts";
import type { Knex } from "knex";
import { SENDING_DOMAIN_STATUSES, domainOf, type Profile, type ProfileKind, type SenderProfile } from "../../../core/company/model.js";
import type { NewProfile, ProfileRepository } from "../../../core/company/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbDate, decodeRow, toDbDate } from "../row-codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";

const TABLES: Readonly<Record<ProfileKind, string>> = { sender: "sender_profiles", reply: "reply_profiles" };

const ProfileRow = t.type({ id: t.string, company_id: t.string, name: t.string, email: t.string, created_at: DbDate, updated_at: DbDate });
const SenderRow = t.intersection([
  ProfileRow,
  t.type({
    domain_id: t.union([t.string, t.null]),
    domain: t.union([t.string, t.null]),
    domain_status: t.union([oneOf(SENDING_DOMAIN_STATUSES), t.null]),
  }),
]);

function toProfile(row: unknown, table: string): Profile {
  const r = decodeRow(ProfileRow, row, table);
  return { id: r.id, companyId: r.company_id, name: r.name, email: r.email, createdAt: r.created_at, updatedAt: r.updated_at };
}

function toSender(row: unknown): SenderProfile {
  const r = decodeRow(SenderRow, row, "sender_profiles");
  return { ...toProfile(row, "sender_profiles"), domainId: r.domain_id, domain: r.domain, domainStatus: r.domain_status };
}

/** Inserts a profile; a sender is linked to the company's sending domain of its address. */
export async function insertProfile(knex: Knex, companyId: string, kind: ProfileKind, profile: NewProfile): Promise<void> {
  const row: Record<string, unknown> = {
    id: profile.id,
    company_id: companyId,
    name: profile.name,
    email: profile.email,
    created_at: toDbDate(profile.at),
    updated_at: toDbDate(profile.at),
  };
  if (kind === "sender") {
    const domain = await knex("sending_domains")
      .where({ company_id: companyId, domain: domainOf(profile.email) })
      .first("id");
    row.domain_id = domain?.id ?? null;
  }
  await knex(TABLES[kind]).insert(row);
}

export async function renameProfile(knex: Knex, companyId: string, kind: ProfileKind, id: string, name: string, at: Date): Promise<boolean> {
  return (
    (await knex(TABLES[kind])
      .where({ company_id: companyId, id })
      .update({ name, updated_at: toDbDate(at) })) > 0
  );
}

/** `sender_profiles` (with their sending domain) and `reply_profiles`. */
export class KnexProfileRepository implements ProfileRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
  }

  private senders(companyId: string) {
    return this.knex("sender_profiles as p")
      .leftJoin("sending_domains as d", function () {
        this.on("d.id", "p.domain_id").andOn("d.company_id", "p.company_id");
      })
      .where("p.company_id", companyId)
      .select("p.*", "d.domain as domain", "d.status as domain_status")
      .orderBy([{ column: "p.created_at" }, { column: "p.id" }]);
  }

  /** Read on every send (who it is from): cached on SQLite until the database changes. */
  listSenders(companyId: string): Promise<SenderProfile[]> {
    return this.cache.read(`sender-profiles:${companyId}`, ["sender_profiles", "sending_domains"], async () => (await this.senders(companyId)).map(toSender));
  }

  async listReplies(companyId: string): Promise<Profile[]> {
    const rows = await this.knex("reply_profiles")
      .where({ company_id: companyId })
      .orderBy([{ column: "created_at" }, { column: "id" }]);
    return rows.map((row) => toProfile(row, "reply_profiles"));
  }

  async findSender(companyId: string, id: string): Promise<SenderProfile | null> {
    const [row] = await this.senders(companyId).where("p.id", id);
    return row ? toSender(row) : null;
  }

  async findReply(companyId: string, id: string): Promise<Profile | null> {
    const [row] = await this.knex("reply_profiles").where({ company_id: companyId, id });
    return row ? toProfile(row, "reply_profiles") : null;
  }

  async insertSender(companyId: string, profile: NewProfile): Promise<SenderProfile> {
    await insertProfile(this.knex, companyId, "sender", profile);
    const inserted = await this.findSender(companyId, profile.id);
    if (!inserted) throw new Error(`sender profile ${profile.id} vanished after insert`);
    return inserted;
  }

  rename(companyId: string, kind: ProfileKind, id: string, name: string, at: Date): Promise<boolean> {
    return renameProfile(this.knex, companyId, kind, id, name, at);
  }

  async deleteSender(companyId: string, id: string): Promise<boolean> {
    return (await this.knex("sender_profiles").where({ company_id: companyId, id }).delete()) > 0;
  }
}
