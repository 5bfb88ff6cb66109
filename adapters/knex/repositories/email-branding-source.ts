import * as t from "io-ts";
import type { Knex } from "knex";
import { resolveEmailTheme, THEME_PRESETS } from "../../../core/company/email-theme.js";
import type { EmailBranding, EmailBrandingSource } from "../../../core/emails/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { dbJson, decodeRow } from "../row-codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";

/** The stored partial theme; keys the renderer does not know are ignored. */
const StoredTheme = t.partial({
  presetId: oneOf(THEME_PRESETS),
  colors: t.record(t.string, t.string),
  typography: t.record(t.string, t.number),
  layout: t.record(t.string, t.number),
});

const BrandingRow = t.type({
  name: t.string,
  primary_color: t.union([t.string, t.null]),
  email_theme: t.union([t.null, dbJson(t.union([t.null, StoredTheme]))]),
});

/** Reads what emails need from `companies`: the name and the theme (resolved against its preset). */
export class KnexEmailBrandingSource implements EmailBrandingSource {
  constructor(private readonly knex: Knex) {}

  /** Read on every render: cached on SQLite until the database changes. */
  find(companyId: string): Promise<EmailBranding | null> {
    return SqliteReadCache.for(this.knex).read(`email-branding:${companyId}`, ["companies"], async () => {
      const [row] = await this.knex("companies").where({ id: companyId }).select("name", "primary_color", "email_theme");
      if (!row) return null;
      const r = decodeRow(BrandingRow, row, "companies");
      return { companyName: r.name, theme: resolveEmailTheme(r.email_theme ?? null, r.primary_color) };
    });
  }
}
