import { map } from "fp-ts/lib/Either.js";
import { TEMPLATE_NOT_FOUND } from "../emails/model.js";
import type { TemplateRepository } from "../emails/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, type Result } from "../shared/result.js";
import type { UpdateTrackingSettingsCommand } from "./commands.js";
import type { GetTrackingSettings } from "./get-tracking-settings.js";
import { type AutoUtmSettings, type TrackingSettings } from "./model.js";
import type { TrackingSettingsRepository } from "./ports.js";
import type { TrackingSettingsView } from "./view.js";

export const NOTHING_TO_UPDATE = badRequest(
  "Provide at least one of openTrackingEnabled, clickTrackingEnabled, strictBotFilteringEnabled, unsubscribeTrackingEnabled, doubleOptInEnabled, autoUtmEnabled, defaultAttributionWindowHours, autoUtmSettings, doubleOptInEmailId",
);

export const SETTINGS_UPDATED = "Tracking settings updated";

const NO_UTM: AutoUtmSettings = { source: null, medium: null, campaign: null, content: null, term: null };

/**
 * PATCH /tracking-settings: sets what is given, leaves the rest. `autoUtmSettings` merges key by
 * key into the stored ones (null resets them all); `doubleOptInEmailId` must name a template of
 * the company (404 otherwise).
 */
export class UpdateTrackingSettings {
  constructor(
    private readonly settings: TrackingSettingsRepository,
    private readonly templates: TemplateRepository,
    private readonly getSettings: GetTrackingSettings,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, command: UpdateTrackingSettingsCommand): Promise<Result<TrackingSettingsView & { message: string }>> => {
    const { autoUtmSettings, ...flags } = command;
    const changes: { -readonly [K in keyof TrackingSettings]?: TrackingSettings[K] } = Object.fromEntries(
      Object.entries(flags).filter(([, value]) => value !== undefined),
    );
    if (autoUtmSettings !== undefined) changes.autoUtmSettings = await this.mergedUtm(actor.companyId, autoUtmSettings);
    if (Object.keys(changes).length === 0) return fail(NOTHING_TO_UPDATE);
    if (changes.doubleOptInEmailId && !(await this.templates.find(actor.companyId, changes.doubleOptInEmailId))) return fail(TEMPLATE_NOT_FOUND);

    await this.settings.update(actor.companyId, changes, this.clock.now());
    const updated = await this.getSettings.execute(actor);
    return map((view: TrackingSettingsView) => ({ ...view, message: SETTINGS_UPDATED }))(updated);
  };

  private async mergedUtm(companyId: string, patch: UpdateTrackingSettingsCommand["autoUtmSettings"]): Promise<AutoUtmSettings | null> {
    if (patch === null || patch === undefined) return null;
    const stored = (await this.settings.find(companyId)).autoUtmSettings ?? NO_UTM;
    const value = (key: keyof AutoUtmSettings) => (patch[key] === undefined ? stored[key] : (patch[key] ?? null));
    return { source: value("source"), medium: value("medium"), campaign: value("campaign"), content: value("content"), term: value("term") };
  }
}
