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
 */
export const publicSurfaces: readonly PublicSurface[] = [
  deliveryWebhooks,
  integrationWebhooks,
  trackingSurface,
  optInSurface,
  sharedEmailsSurface,
  webTrackingSurface,
  formsSurface,
  landingPagesSurface,
  invitationsSurface,
];
