import * as t from "io-ts";
import { Id, JsonObject, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { catalogEntry, type ProviderEntry } from "./catalog.js";
import { listTargetingOf, type Integration, type IntegrationDelivery } from "./model.js";

/** The spec's Integration fields, then what the list adds (compat-reference §23): non-secret details and the last sync. */
export const IntegrationView = view(
  {
    id: Id,
    provider: t.string,
    name: t.string,
    providerAccountId: t.string,
    isActive: t.boolean,
    syncEnabled: t.boolean,
    syncStatus: NullableString,
    connectedAt: Timestamp,
    details: JsonObject,
    lastSyncAt: NullableTimestamp,
    lastSyncError: NullableString,
    lastSyncSkipped: t.number,
  },
  "Integration",
);
export type IntegrationView = t.TypeOf<typeof IntegrationView>;

export function toIntegrationView(integration: Integration): IntegrationView {
  const { settings } = integration;
  return {
    id: integration.id,
    provider: integration.provider,
    name: integration.name,
    providerAccountId: integration.providerAccountId,
    isActive: integration.isActive,
    syncEnabled: integration.syncEnabled,
    syncStatus: integration.syncStatus,
    connectedAt: integration.connectedAt.toISOString(),
    details: {
      category: catalogEntry(integration.provider).category,
      listTargeting: listTargetingOf(settings.listIds),
      listIds: settings.listIds,
      ...(settings.syncAllEvents !== undefined ? { syncAllEvents: settings.syncAllEvents } : {}),
      ...(settings.eventAllowlist !== undefined ? { eventAllowlist: settings.eventAllowlist } : {}),
      ...(integration.syncState ? { lastSyncKind: integration.syncState.kind, lastSyncRecorded: integration.syncState.recorded } : {}),
    },
    lastSyncAt: integration.lastSyncAt?.toISOString() ?? null,
    lastSyncError: integration.lastSyncError,
    lastSyncSkipped: integration.syncState?.skipped ?? 0,
  };
}

export const ActivityView = view(
  {
    id: Id,
    integrationId: t.string,
    provider: t.string,
    eventId: t.string,
    eventType: t.string,
    status: t.string,
    subscriberIds: t.array(t.string),
    events: t.array(t.string),
    reason: NullableString,
    error: NullableString,
    receivedAt: Timestamp,
    processedAt: NullableTimestamp,
  },
  "IntegrationActivity",
);
export type ActivityView = t.TypeOf<typeof ActivityView>;

export const toActivityView = (delivery: IntegrationDelivery): ActivityView => ({
  id: delivery.id,
  integrationId: delivery.integrationId,
  provider: delivery.provider,
  eventId: delivery.providerEventId,
  eventType: delivery.eventType,
  status: delivery.status,
  subscriberIds: [...(delivery.outcome?.subscriberIds ?? [])],
  events: [...(delivery.outcome?.events ?? [])],
  reason: delivery.outcome?.reason ?? null,
  error: delivery.error,
  receivedAt: delivery.receivedAt.toISOString(),
  processedAt: delivery.processedAt?.toISOString() ?? null,
});

export const ProviderView = view(
  {
    provider: t.string,
    name: t.string,
    category: t.string,
    connectMethod: t.string,
    connectFields: t.array(view({ name: t.string, required: t.boolean, description: t.string })),
    signature: t.string,
    events: t.array(t.string),
    attributes: t.array(t.string),
    actions: t.array(t.string),
    caveats: t.array(t.string),
  },
  "IntegrationProvider",
);
export type ProviderView = t.TypeOf<typeof ProviderView>;

export function toProviderView(entry: ProviderEntry): ProviderView {
  const fields = [
    { name: "webhookSecret", required: true, description: entry.webhookSecretHint },
    ...(entry.needsApiKey ? [{ name: "apiKey", required: true, description: `${entry.name} API key` }] : []),
    ...(entry.accountIdLabel ? [{ name: "providerAccountId", required: true, description: `${entry.name} ${entry.accountIdLabel}` }] : []),
    ...(entry.category === "analytics"
      ? [
          { name: "settings", required: false, description: "syncAllEvents (boolean), eventAllowlist (string[]); default: every non-internal event" },
          { name: "historyImport", required: false, description: "region (us or eu), projectId, personalApiKey with query read access" },
        ]
      : []),
  ];
  return {
    provider: entry.provider,
    name: entry.name,
    category: entry.category,
    connectMethod: entry.connectMethod,
    connectFields: fields,
    signature: entry.signature,
    events: [...entry.events],
    attributes: [...entry.attributes],
    actions: entry.sync ? ["sync", "disconnect"] : ["disconnect"],
    caveats: [...entry.caveats],
  };
}
