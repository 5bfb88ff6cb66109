import * as t from "io-ts";
import { boundedText, integerBetween, nullable, optional } from "../shared/codecs.js";
import { ATTRIBUTION_WINDOW_MAX_HOURS, ATTRIBUTION_WINDOW_MIN_HOURS } from "./model.js";

export const MAX_UTM_VALUE_LENGTH = 200;
export const MAX_EMAIL_ID_LENGTH = 64;

const UtmValue = optional(nullable(boundedText(MAX_UTM_VALUE_LENGTH)));

/** Each key given replaces the stored value (null removes it); keys left out stay. */
export const AutoUtmSettingsPatch = t.exact(
  t.partial({ source: UtmValue, medium: UtmValue, campaign: UtmValue, content: UtmValue, term: UtmValue }),
  "AutoUtmSettingsPatch",
);
export type AutoUtmSettingsPatch = t.TypeOf<typeof AutoUtmSettingsPatch>;

/** PATCH /tracking-settings (compat-reference §26): at least one setting; the use case says so (400) when none is given. */
export const UpdateTrackingSettingsCommand = t.exact(
  t.partial({
    openTrackingEnabled: optional(t.boolean),
    clickTrackingEnabled: optional(t.boolean),
    strictBotFilteringEnabled: optional(t.boolean),
    unsubscribeTrackingEnabled: optional(t.boolean),
    doubleOptInEnabled: optional(t.boolean),
    autoUtmEnabled: optional(t.boolean),
    defaultAttributionWindowHours: optional(integerBetween(ATTRIBUTION_WINDOW_MIN_HOURS, ATTRIBUTION_WINDOW_MAX_HOURS)),
    /** null resets them. */
    autoUtmSettings: optional(t.union([AutoUtmSettingsPatch, t.null])),
    /** Not in the product's PATCH (GET shows it): the saved email confirming a subscription; null goes back to the built-in one. */
    doubleOptInEmailId: optional(nullable(boundedText(MAX_EMAIL_ID_LENGTH))),
  }),
  "UpdateTrackingSettings",
);
export type UpdateTrackingSettingsCommand = t.TypeOf<typeof UpdateTrackingSettingsCommand>;
