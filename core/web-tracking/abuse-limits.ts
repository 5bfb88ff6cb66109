import type { RateWindow } from "../access/rate-budgets.js";

/**
 * The public event endpoint's own abuse limits (the spec leaves their values open). A visitor's
 * script sends a batch every few seconds at most, so one address gets far more than a real
 * visitor needs and far less than a flood; one key gets what a busy site's visitors send
 * together, shared by all servers.
 */
export const WEB_TRACKING_ADDRESS_WINDOWS: readonly RateWindow[] = [
  { points: 10, seconds: 1 },
  { points: 120, seconds: 60 },
];
export const WEB_TRACKING_KEY_WINDOWS: readonly RateWindow[] = [
  { points: 200, seconds: 1 },
  { points: 6_000, seconds: 60 },
];

/** The largest request body the endpoint reads: a full batch of events with generous properties. */
export const WEB_TRACKING_BODY_LIMIT = "64kb";
