/**
 * A company's tracking and consent settings (compat-reference §26). A company that never saved
 * any has DEFAULT_TRACKING_SETTINGS.
 */

/** UTM parameters added to links when auto UTM is on; null leaves that parameter out. */
export interface AutoUtmSettings {
  readonly source: string | null;
  readonly medium: string | null;
  readonly campaign: string | null;
  readonly content: string | null;
  readonly term: string | null;
}

export const AUTO_UTM_KEYS = ["source", "medium", "campaign", "content", "term"] as const satisfies ReadonlyArray<keyof AutoUtmSettings>;

export interface TrackingSettings {
  readonly openTrackingEnabled: boolean;
  readonly clickTrackingEnabled: boolean;
  readonly unsubscribeTrackingEnabled: boolean;
  readonly strictBotFilteringEnabled: boolean;
  readonly defaultAttributionWindowHours: number;
  readonly doubleOptInEnabled: boolean;
  /** The saved email (template) sent to confirm a subscription; null: the built-in one. */
  readonly doubleOptInEmailId: string | null;
  readonly autoUtmEnabled: boolean;
  /** null: none saved (or reset). */
  readonly autoUtmSettings: AutoUtmSettings | null;
}

export const ATTRIBUTION_WINDOW_MIN_HOURS = 1;
export const ATTRIBUTION_WINDOW_MAX_HOURS = 720;

export const DEFAULT_TRACKING_SETTINGS: TrackingSettings = {
  openTrackingEnabled: true,
  clickTrackingEnabled: true,
  unsubscribeTrackingEnabled: true,
  strictBotFilteringEnabled: false,
  defaultAttributionWindowHours: 72,
  doubleOptInEnabled: false,
  doubleOptInEmailId: null,
  autoUtmEnabled: false,
  autoUtmSettings: null,
};
