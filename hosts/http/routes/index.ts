import type { RouteModule } from "../route-module.js";
import { tenancyRoutes } from "./tenancy.js";
import { apiKeyRoutes } from "./api-keys.js";
import { subscriberImportsRoutes } from "./subscriber-imports.js";
import { subscriberOperationsRoutes } from "./subscriber-operations.js";
import { eventsRoutes } from "./events.js";
import { notesRoutes } from "./notes.js";
import { tagsRoutes } from "./tags.js";
import { listsRoutes } from "./lists.js";
import { segmentsRoutes } from "./segments.js";
import { sequencesRoutes } from "./sequences.js";
import { sequenceRealignRoutes } from "./sequence-realign.js";
import { sequenceGoalsRoutes } from "./sequence-goals.js";
import { sequenceRunsRoutes } from "./sequence-runs.js";
import { sequenceMetricsRoutes } from "./sequence-metrics.js";
import { sequenceNodeEmailsRoutes } from "./sequence-node-emails.js";
import { accountsRoutes } from "./accounts.js";
import { subscribersRoutes } from "./subscribers.js";
import { emailSendsRoutes } from "./email-sends.js";
import { templatesRoutes } from "./templates.js";
import { emailComponentsRoutes } from "./email-components.js";
import { metricsRoutes } from "./metrics.js";
import { suppressionsRoutes } from "./suppressions.js";
import { sendingStatusRoutes } from "./sending-status.js";
import { deliveryWebhookRoutes } from "./delivery-webhooks.js";
import { companyRoutes } from "./company.js";
import { sendingDomainsRoutes } from "./sending-domains.js";
import { websitesRoutes } from "./websites.js";
import { transactionalRoutes } from "./transactional.js";
import { dataExportsRoutes } from "./data-exports.js";
import { warehouseSyncsRoutes } from "./warehouse-syncs.js";
import { migrationsRoutes } from "./migrations.js";
import { campaignsRoutes } from "./campaigns.js";
import { campaignActionsRoutes } from "./campaign-actions.js";
import { trackingSettingsRoutes } from "./tracking-settings.js";
import { formsRoutes } from "./forms.js";
import { landingPagesRoutes } from "./landing-pages.js";
import { webTrackingRoutes } from "./web-tracking.js";
import { teamRoutes } from "./team.js";
import { webhooksRoutes } from "./webhooks.js";
import { integrationsRoutes } from "./integrations.js";

/**
 * Every API route module, in mounting order: fixed paths such as /subscribers/me, /subscribers/events
 * or /subscribers/notes/:noteId come before parameterised ones such as /subscribers/:email, so
 * the subscribers module stays last.
 */
export const apiRouteModules: readonly RouteModule[] = [
  tenancyRoutes,
  apiKeyRoutes,
  subscriberImportsRoutes,
  subscriberOperationsRoutes,
  eventsRoutes,
  notesRoutes,
  tagsRoutes,
  listsRoutes,
  segmentsRoutes,
  sequencesRoutes,
  sequenceRealignRoutes,
  sequenceGoalsRoutes,
  sequenceRunsRoutes,
  sequenceMetricsRoutes,
  sequenceNodeEmailsRoutes,
  accountsRoutes,
  metricsRoutes,
  suppressionsRoutes,
  sendingStatusRoutes,
  deliveryWebhookRoutes,
  companyRoutes,
  sendingDomainsRoutes,
  websitesRoutes,
  templatesRoutes,
  emailComponentsRoutes,
  transactionalRoutes,
  emailSendsRoutes,
  dataExportsRoutes,
  warehouseSyncsRoutes,
  migrationsRoutes,
  campaignsRoutes,
  campaignActionsRoutes,
  trackingSettingsRoutes,
  formsRoutes,
  landingPagesRoutes,
  webTrackingRoutes,
  teamRoutes,
  webhooksRoutes,
  integrationsRoutes,
  subscribersRoutes,
];
