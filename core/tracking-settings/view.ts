import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { NullableString, view } from "../shared/view-fields.js";
import { REPLY_TRACKING_DOMAIN_MODES, type CompanyProfile } from "../company/model.js";
import type { TrackingSettings } from "./model.js";

const AutoUtmSettingsView = view(
  { source: NullableString, medium: NullableString, campaign: NullableString, content: NullableString, term: NullableString },
  "AutoUtmSettings",
);

/** GET and PATCH /tracking-settings (compat-reference §26). */
export const TrackingSettingsView = view(
  {
    tracking: view(
      {
        openTrackingEnabled: t.boolean,
        clickTrackingEnabled: t.boolean,
        unsubscribeTrackingEnabled: t.boolean,
        strictBotFilteringEnabled: t.boolean,
        defaultAttributionWindowHours: t.number,
      },
      "Tracking",
    ),
    consent: view({ doubleOptInEnabled: t.boolean, doubleOptInEmailId: NullableString }, "Consent"),
    autoUtm: view({ enabled: t.boolean, settings: t.union([AutoUtmSettingsView, t.null]) }, "AutoUtm"),
    /** Custom tracking domains are not supported: links use the server's public origin. */
    trackingDomain: t.null,
    /** Changed with PATCH /companies/{id}. */
    replyTracking: view({ enabled: t.boolean, domainMode: oneOf(REPLY_TRACKING_DOMAIN_MODES, "ReplyTrackingDomainMode") }, "ReplyTracking"),
  },
  "TrackingSettings",
);
export type TrackingSettingsView = t.TypeOf<typeof TrackingSettingsView>;

export const toTrackingSettingsView = (
  settings: TrackingSettings,
  company: Pick<CompanyProfile, "replyTrackingEnabled" | "replyTrackingDomainMode">,
): TrackingSettingsView => ({
  tracking: {
    openTrackingEnabled: settings.openTrackingEnabled,
    clickTrackingEnabled: settings.clickTrackingEnabled,
    unsubscribeTrackingEnabled: settings.unsubscribeTrackingEnabled,
    strictBotFilteringEnabled: settings.strictBotFilteringEnabled,
    defaultAttributionWindowHours: settings.defaultAttributionWindowHours,
  },
  consent: { doubleOptInEnabled: settings.doubleOptInEnabled, doubleOptInEmailId: settings.doubleOptInEmailId },
  autoUtm: { enabled: settings.autoUtmEnabled, settings: settings.autoUtmSettings },
  trackingDomain: null,
  replyTracking: { enabled: company.replyTrackingEnabled, domainMode: company.replyTrackingDomainMode },
});
