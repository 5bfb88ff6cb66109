import * as t from "io-ts";
import { UpdateTrackingSettingsCommand } from "../../../core/tracking-settings/commands.js";
import { GetTrackingSettings } from "../../../core/tracking-settings/get-tracking-settings.js";
import { ATTRIBUTION_WINDOW_MAX_HOURS, ATTRIBUTION_WINDOW_MIN_HOURS } from "../../../core/tracking-settings/model.js";
import { UpdateTrackingSettings } from "../../../core/tracking-settings/update-tracking-settings.js";
import { TrackingSettingsView } from "../../../core/tracking-settings/view.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

const PATCH_RULES = [
  "Update tracking and consent settings: at least one of openTrackingEnabled, clickTrackingEnabled, strictBotFilteringEnabled, unsubscribeTrackingEnabled,",
  `doubleOptInEnabled, autoUtmEnabled (booleans), defaultAttributionWindowHours (integer ${ATTRIBUTION_WINDOW_MIN_HOURS}-${ATTRIBUTION_WINDOW_MAX_HOURS}),`,
  "autoUtmSettings (null resets; else {source, medium, campaign, content, term}, each a string or null, merged key by key),",
  "doubleOptInEmailId (a template ID sent to confirm new contacts, null for the built-in email; 404 'Template not found').",
  "Nothing given: 400. Open and click tracking apply to emails queued afterwards (a send's own trackingSettings win).",
  "Reply tracking stays on PATCH /companies/{id}.",
].join(" ");

/** Tracking and consent settings of the key's company (compat-reference §26). */
export const trackingSettingsRoutes = routeModule({ getTrackingSettings: GetTrackingSettings, updateTrackingSettings: UpdateTrackingSettings }, (uses) => [
  defineRoute({
    method: "get",
    path: "/tracking-settings",
    tag: "Tracking settings",
    scopes: ["tracking:read"],
    summary: "The company's open, click and unsubscribe tracking, bot filtering, attribution window, double opt-in, auto UTM and reply tracking",
    response: TrackingSettingsView,
    handle: async ({ actor }) => uses.getTrackingSettings.execute(actor),
  }),
  defineRoute({
    method: "patch",
    path: "/tracking-settings",
    tag: "Tracking settings",
    scopes: ["tracking:write"],
    summary: PATCH_RULES,
    body: UpdateTrackingSettingsCommand,
    response: t.intersection([TrackingSettingsView, t.type({ message: t.string })]),
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => uses.updateTrackingSettings.execute(actor, input.body),
  }),
]);
