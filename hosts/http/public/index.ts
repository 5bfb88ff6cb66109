import type { PublicSurface } from "../public-surface.js";
import { deliveryWebhooks } from "./delivery-webhooks.js";
import { integrationWebhooks } from "./integration-webhooks.js";
import { formsSurface } from "./forms.js";
import { invitationsSurface } from "./invitations.js";
import { landingPagesSurface } from "./landing-pages.js";
import { optInSurface } from "./opt-in.js";
import { sharedEmailsSurface } from "./shared-emails.js";
import { trackingSurface } from "./tracking.js";
import { webTrackingSurface } from "./web-tracking.js";

/**
 * Routes reached without an API key (tracking pixels and links, unsubscribe and confirmation
 * pages, provider webhooks, shared emails, web tracking), each surface its own router. They are mounted at the
 * root, before the API, and parse their own bodies and check their own signatures or tokens.
 * Their paths do not overlap; the busiest (opens, clicks and site events, one request per visitor
 * action) come first, as a request walks every route mounted before its own.
 */
export const publicSurfaces: readonly PublicSurface[] = [
  trackingSurface,
  webTrackingSurface,
  deliveryWebhooks,
  integrationWebhooks,
  optInSurface,
  sharedEmailsSurface,
  formsSurface,
  landingPagesSurface,
  invitationsSurface,
];
