import * as t from "io-ts";
import type { Knex } from "knex";
import { REPLY_TRACKING_DOMAIN_MODES, type CompanyProfile } from "../../../core/company/model.js";

import type { CompanyProfileRepository, CompanyProfileUpdate } from "../../../core/company/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";
import { DbBoolean, DbDate, DbInteger, dbJson, decodeRow } from "../row-codecs.js";
import { insertProfile, renameProfile } from "./profile-repository.js";

const NullableText = t.union([t.string, t.null]);

const CompanyProfileRow = t.type({
  id: t.string,
  name: t.string,
  website_url: NullableText,
  primary_color: NullableText,
  email_theme: t.union([t.null, dbJson(t.UnknownRecord)]),
  brand_colors: dbJson(t.UnknownRecord),
  description: NullableText,
  company_context: NullableText,
  tone_voice: NullableText,
  email_length_preference: NullableText,
  value_props: dbJson(t.UnknownArray),
  default_sender_profile_id: NullableText,
  default_reply_profile_id: NullableText,
  reply_tracking_enabled: DbBoolean,
  reply_tracking_domain_mode: oneOf(REPLY_TRACKING_DOMAIN_MODES),
  forward_replies: DbBoolean,
  reply_retention_days: DbInteger,
  created_at: DbDate,
});

function toCompanyProfile(row: unknown): CompanyProfile {
  const r = decodeRow(CompanyProfileRow, row, "companies");
  return {
    id: r.id,
    name: r.name,
    websiteUrl: r.website_url,
    primaryColor: r.primary_color,
    emailTheme: r.email_theme,
    brandColors: r.brand_colors,
    description: r.description,
    companyContext: r.company_context,
    toneVoice: r.tone_voice,
    emailLengthPreference: r.email_length_preference,
    valueProps: r.value_props,
    defaultSenderProfileId: r.default_sender_profile_id,
    defaultReplyProfileId: r.default_reply_profile_id,
    replyTrackingEnabled: r.reply_tracking_enabled,
    replyTrackingDomainMode: r.reply_tracking_domain_mode,
    forwardReplies: r.forward_replies,
    replyRetentionDays: r.reply_retention_days,
    createdAt: r.created_at,
  };
}

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** Columns of each change (JSON documents written as text: both dialects read it back). */
const same = (value: unknown): unknown => value;
const COLUMNS: Readonly<Record<keyof CompanyProfileUpdate["changes"], readonly [string, (value: unknown) => unknown]>> = {
  name: ["name", same],
  primaryColor: ["primary_color", same],
  emailTheme: ["email_theme", json],
  brandColors: ["brand_colors", json],
  description: ["description", same],
  companyContext: ["company_context", same],
  toneVoice: ["tone_voice", same],
  valueProps: ["value_props", json],
  defaultSenderProfileId: ["default_sender_profile_id", same],
  defaultReplyProfileId: ["default_reply_profile_id", same],
  replyTrackingEnabled: ["reply_tracking_enabled", same],
  replyTrackingDomainMode: ["reply_tracking_domain_mode", same],
  forwardReplies: ["forward_replies", same],
};

/** The profile columns of `companies` (migration 0006). */
export class KnexCompanyProfileRepository implements CompanyProfileRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
  }

  /** Read on every send (the sender's defaults): cached on SQLite until the database changes. */
  find(companyId: string): Promise<CompanyProfile | null> {
    return this.cache.read(`company-profile:${companyId}`, ["companies"], async () => {
      const [row] = await this.knex("companies").where({ id: companyId });
      return row ? toCompanyProfile(row) : null;
    });
  }

  async apply(companyId: string, update: CompanyProfileUpdate): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const [company] = await trx("companies").where({ id: companyId }).select("id");
      if (!company) return false;
      for (const profile of update.createProfiles) await insertProfile(trx, companyId, profile.kind, profile);
      for (const rename of update.renameProfiles) await renameProfile(trx, companyId, rename.kind, rename.id, rename.name, update.at);
      const columns: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(update.changes)) {
        if (value === undefined) continue;
        const [column, encode] = COLUMNS[key as keyof typeof COLUMNS];
        columns[column] = encode(value);
      }
      if (Object.keys(columns).length > 0) await trx("companies").where({ id: companyId }).update(columns);
      return true;
    });
  }
}
