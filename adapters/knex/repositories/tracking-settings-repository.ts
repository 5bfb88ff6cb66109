import * as t from "io-ts";
import type { Knex } from "knex";
import { DEFAULT_TRACKING_SETTINGS, type AutoUtmSettings, type TrackingSettings } from "../../../core/tracking-settings/model.js";
import type { TrackingSettingsRepository } from "../../../core/tracking-settings/ports.js";
import { DbBoolean, DbInteger, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";

const NullableText = t.union([t.string, t.null]);
const AutoUtm = t.type({ source: NullableText, medium: NullableText, campaign: NullableText, content: NullableText, term: NullableText });

const TrackingSettingsRow = t.type({
  open_tracking_enabled: DbBoolean,
  click_tracking_enabled: DbBoolean,
  unsubscribe_tracking_enabled: DbBoolean,
  strict_bot_filtering_enabled: DbBoolean,
  default_attribution_window_hours: DbInteger,
  double_opt_in_enabled: DbBoolean,
  double_opt_in_email_id: NullableText,
  auto_utm_enabled: DbBoolean,
  auto_utm_settings: t.union([t.null, dbJson(AutoUtm)]),
});

/** The column of each setting, and how it is written (JSON as text: both dialects read it back). */
const COLUMNS: { readonly [K in keyof TrackingSettings]: readonly [string, (value: TrackingSettings[K]) => unknown] } = {
  openTrackingEnabled: ["open_tracking_enabled", Boolean],
  clickTrackingEnabled: ["click_tracking_enabled", Boolean],
  unsubscribeTrackingEnabled: ["unsubscribe_tracking_enabled", Boolean],
  strictBotFilteringEnabled: ["strict_bot_filtering_enabled", Boolean],
  defaultAttributionWindowHours: ["default_attribution_window_hours", Number],
  doubleOptInEnabled: ["double_opt_in_enabled", Boolean],
  doubleOptInEmailId: ["double_opt_in_email_id", (value) => value],
  autoUtmEnabled: ["auto_utm_enabled", Boolean],
  autoUtmSettings: ["auto_utm_settings", (value: AutoUtmSettings | null) => (value === null ? null : JSON.stringify(value))],
};

function columnsOf(settings: Partial<TrackingSettings>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key of Object.keys(settings) as Array<keyof TrackingSettings>) {
    const [column, write] = COLUMNS[key] as readonly [string, (value: unknown) => unknown];
    row[column] = write(settings[key]);
  }
  return row;
}

/** `tracking_settings`: one row per company, created by its first update. */
export class KnexTrackingSettingsRepository implements TrackingSettingsRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
  }

  /** Read on every send (what to track): cached on SQLite until the database changes. */
  find(companyId: string): Promise<TrackingSettings> {
    return this.cache.read(`tracking-settings:${companyId}`, ["tracking_settings"], () => this.load(companyId));
  }

  private async load(companyId: string): Promise<TrackingSettings> {
    const row = await this.knex("tracking_settings").where({ company_id: companyId }).first();
    if (!row) return DEFAULT_TRACKING_SETTINGS;
    const r = decodeRow(TrackingSettingsRow, row, "tracking_settings");
    return {
      openTrackingEnabled: r.open_tracking_enabled,
      clickTrackingEnabled: r.click_tracking_enabled,
      unsubscribeTrackingEnabled: r.unsubscribe_tracking_enabled,
      strictBotFilteringEnabled: r.strict_bot_filtering_enabled,
      defaultAttributionWindowHours: r.default_attribution_window_hours,
      doubleOptInEnabled: r.double_opt_in_enabled,
      doubleOptInEmailId: r.double_opt_in_email_id,
      autoUtmEnabled: r.auto_utm_enabled,
      autoUtmSettings: r.auto_utm_settings,
    };
  }

  /** One upsert: the first update inserts the defaults with the changes, later ones set only the changed columns. */
  async update(companyId: string, changes: Partial<TrackingSettings>, at: Date): Promise<void> {
    const changed = { ...columnsOf(changes), updated_at: toDbDate(at) };
    await this.knex("tracking_settings")
      .insert({ company_id: companyId, ...columnsOf(DEFAULT_TRACKING_SETTINGS), ...changed })
      .onConflict("company_id")
      .merge(Object.keys(changed));
  }
}
