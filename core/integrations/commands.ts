import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { BooleanFromString, boundedText, integerBetween, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { DELIVERY_STATUSES } from "./model.js";

/**
 * Inputs of the integration routes (spec, POST /integrations/connect; compat-reference §23).
 * Types are checked here (422); which provider, which fields it needs and whether the provider
 * accepts the credentials are the use case's rules (400).
 */

/** The analytics provider's event names: at most this many allow-listed. */
export const MAX_EVENT_ALLOWLIST = 200;
/** Lists new contacts join. */
export const MAX_TARGET_LISTS = 50;

const Secret = required(boundedText(2000));

export const ConnectSettings = t.exact(
  t.partial({ syncAllEvents: optional(t.boolean), eventAllowlist: optional(boundedArray(required(boundedText(200)), 0, MAX_EVENT_ALLOWLIST)) }),
  "ConnectSettings",
);

export const HistoryImportInput = t.exact(
  t.type({ region: oneOf(["us", "eu"] as const), projectId: required(boundedText(100)), personalApiKey: Secret }),
  "HistoryImportInput",
);

/** POST /integrations/connect. `provider` is any string here: unknown and dashboard-only codes are refused by the use case (400). */
export const ConnectIntegrationCommand = t.exact(
  t.intersection([
    t.type({ provider: required(boundedText(50)), webhookSecret: Secret }),
    t.partial({
      apiKey: optional(Secret),
      providerAccountId: optional(required(boundedText(255))),
      name: optional(required(boundedText(255))),
      settings: optional(ConnectSettings),
      historyImport: optional(HistoryImportInput),
    }),
  ]),
  "ConnectIntegrationCommand",
);
export type ConnectIntegrationCommand = t.TypeOf<typeof ConnectIntegrationCommand>;

/** PATCH /integrations/{id}: `syncEnabled`, or `listIds` (a list: those lists; []: none; null: the company default). */
export const UpdateIntegrationCommand = t.exact(
  t.partial({
    syncEnabled: optional(t.boolean),
    listIds: optional(t.union([boundedArray(required(boundedText(100)), 0, MAX_TARGET_LISTS), t.null])),
  }),
  "UpdateIntegrationCommand",
);
export type UpdateIntegrationCommand = t.TypeOf<typeof UpdateIntegrationCommand>;

export const IntegrationPath = t.type({ integrationId: TrimmedNonEmpty }, "IntegrationPath");

export const ListIntegrationsQuery = t.exact(t.partial({ includeInactive: optional(BooleanFromString) }), "ListIntegrationsQuery");
export type ListIntegrationsQuery = t.TypeOf<typeof ListIntegrationsQuery>;

export const CATEGORIES = ["payments", "ecommerce", "auth", "analytics", "ads", "affiliate", "cms", "developer"] as const;
export const CatalogQuery = t.exact(t.partial({ provider: optional(boundedText(50)), category: optional(oneOf(CATEGORIES)) }), "CatalogQuery");
export type CatalogQuery = t.TypeOf<typeof CatalogQuery>;

export const DEFAULT_ACTIVITY_LIMIT = 25;
export const ActivityQuery = t.exact(
  t.partial({
    integrationId: optional(boundedText(100)),
    provider: optional(boundedText(50)),
    status: optional(oneOf(DELIVERY_STATUSES)),
    limit: optional(integerBetween(1, 100)),
  }),
  "ActivityQuery",
);
export type ActivityQuery = t.TypeOf<typeof ActivityQuery>;
