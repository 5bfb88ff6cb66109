import type { ContainerModule } from "inversify";
import { platformModule } from "./platform.js";
import { tenancyModule } from "./tenancy.js";
import { subscribersModule } from "./subscribers.js";
import { subscriberImportsModule } from "./subscriber-imports.js";
import { subscriberOperationsModule } from "./subscriber-operations.js";
import { tagsModule } from "./tags.js";
import { listsModule } from "./lists.js";
import { eventsModule } from "./events.js";
import { segmentsModule } from "./segments.js";
import { sequencesModule } from "./sequences.js";
import { sequenceRunsModule } from "./sequence-runs.js";
import { sequenceMetricsModule } from "./sequence-metrics.js";
import { accountsModule } from "./accounts.js";
import { metricsModule } from "./metrics.js";
import { deliveryModule } from "./delivery.js";
import { sendingHealthModule } from "./sending-health.js";
import { trackingModule } from "./tracking.js";
import { trackingSettingsModule } from "./tracking-settings.js";
import { optInModule } from "./opt-in.js";
import { companyModule } from "./company.js";
import { emailsModule } from "./emails.js";
import { transactionalModule } from "./transactional.js";
import { emailSendsModule } from "./email-sends.js";
import { dataExportsModule } from "./data-exports.js";
import { warehouseSyncsModule } from "./warehouse-syncs.js";
import { migrationsModule } from "./migrations.js";
import { campaignsModule } from "./campaigns.js";
import { campaignSendsModule } from "./campaign-sends.js";
import { campaignActionsModule } from "./campaign-actions.js";
import { retentionModule } from "./retention.js";
import { formsModule } from "./forms.js";
import { landingPagesModule } from "./landing-pages.js";
import { webTrackingModule } from "./web-tracking.js";
import { teamModule } from "./team.js";
import { webhooksModule } from "./webhooks.js";
import { integrationsModule } from "./integrations.js";

/**
 * Every capability's module (its adapters, use cases and job handlers), loaded in this order:
 * the platform services first, as every other module builds on them.
 */
export const capabilities: readonly ContainerModule[] = [
  platformModule,
  tenancyModule,
  companyModule,
  subscribersModule,
  subscriberImportsModule,
  subscriberOperationsModule,
  tagsModule,
  listsModule,
  eventsModule,
  segmentsModule,
  sequencesModule,
  sequenceRunsModule,
  sequenceMetricsModule,
  accountsModule,
  metricsModule,
  trackingModule,
  trackingSettingsModule,
  optInModule,
  deliveryModule,
  sendingHealthModule,
  emailsModule,
  transactionalModule,
  emailSendsModule,
  dataExportsModule,
  warehouseSyncsModule,
  migrationsModule,
  campaignsModule,
  campaignSendsModule,
  campaignActionsModule,
  retentionModule,
  formsModule,
  landingPagesModule,
  webTrackingModule,
  teamModule,
  webhooksModule,
  integrationsModule,
];
