import * as t from "io-ts";
import {
  ActivityQuery,
  CatalogQuery,
  ConnectIntegrationCommand,
  IntegrationPath,
  ListIntegrationsQuery,
  UpdateIntegrationCommand,
} from "../../../core/integrations/commands.js";
import { ConnectIntegration } from "../../../core/integrations/connect-integration.js";
import { DisconnectIntegration } from "../../../core/integrations/disconnect-integration.js";
import { GetIntegration } from "../../../core/integrations/get-integration.js";
import { GetIntegrationCatalog } from "../../../core/integrations/get-integration-catalog.js";
import { ListIntegrationActivity } from "../../../core/integrations/list-integration-activity.js";
import { ListIntegrations } from "../../../core/integrations/list-integrations.js";
import { RequestIntegrationSync } from "../../../core/integrations/request-integration-sync.js";
import { UpdateIntegration } from "../../../core/integrations/update-integration.js";
import { ActivityView, IntegrationView, ProviderView } from "../../../core/integrations/view.js";
import { PROVIDERS } from "../../../core/integrations/model.js";
import { NullableString, NullableTimestamp, view, viewWithOptional } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const History = view({ requested: t.boolean, queued: t.boolean, error: NullableString });

/** Integrations with payment, identity, analytics and affiliate providers (spec, Integrations; compat-reference §23). */
export const integrationsRoutes = routeModule(
  {
    connect: ConnectIntegration,
    list: ListIntegrations,
    get: GetIntegration,
    catalog: GetIntegrationCatalog,
    activity: ListIntegrationActivity,
    update: UpdateIntegration,
    sync: RequestIntegrationSync,
    disconnect: DisconnectIntegration,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/integrations/connect",
      tag: "Integrations",
      scopes: ["integrations:manage"],
      summary: `Connect a provider with its credentials: provider (${PROVIDERS.join(", ")}), webhookSecret (chargebee: the webhook's basic-auth username:password), apiKey (all but clerk and posthog), providerAccountId (paddle seller ID, dodo business ID, whop company ID, creem store ID, chargebee site name; polar resolves it from the key, the others derive it), settings and historyImport (posthog only). Credentials are checked with the provider where it offers a check (400 invalid credential or missing read permission), stored encrypted and never returned; connecting again replaces them. 400 for providers connected in the dashboard (stripe, shopify, woocommerce, supabase, github, meta); 409 when the provider account is connected to another workspace. Set webhookUrl in the provider's webhook settings with the same secret.`,
      body: ConnectIntegrationCommand,
      response: viewWithOptional(
        { integration: IntegrationView, webhookUrl: t.string },
        { revenueSyncQueued: t.boolean, backfillQueued: t.boolean, history: History },
      ),
      errors: [400, 403, 409, 422],
      handle: async ({ input, actor }) => uses.connect.execute(actor, input.body),
    }),
    defineRoute({
      method: "get",
      path: "/integrations",
      tag: "Integrations",
      scopes: ["integrations:read"],
      summary: "The company's connected integrations, newest first; includeInactive=true adds disconnected ones. Credentials are never returned.",
      query: ListIntegrationsQuery,
      response: view({ integrations: t.array(IntegrationView) }),
      handle: async ({ input, actor }) => under("integrations")(await uses.list.execute(actor, input.query.includeInactive ?? false)),
    }),
    defineRoute({
      method: "get",
      path: "/integrations/catalog",
      tag: "Integrations",
      scopes: ["integrations:read"],
      summary:
        "The providers that connect with credentials: category, connect fields, how their webhooks are signed, the events and attributes they bring, caveats. Filter with provider or category.",
      query: CatalogQuery,
      response: view({ providers: t.array(ProviderView) }),
      handle: async ({ input }) => under("providers")(await uses.catalog.execute(input.query)),
    }),
    defineRoute({
      method: "get",
      path: "/integrations/activity",
      tag: "Integrations",
      scopes: ["integrations:read"],
      summary:
        "Provider webhooks received in the last 24 hours, newest first, with what became of each (received, queued, processed, skipped, failed) and why. Filters: integrationId, provider, status; limit 1-100 (default 25).",
      query: ActivityQuery,
      response: view({ activity: t.array(ActivityView), windowHours: t.number, note: t.string }),
      errors: [422],
      handle: async ({ input, actor }) => uses.activity.execute(actor, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/integrations/:integrationId",
      tag: "Integrations",
      scopes: ["integrations:read"],
      summary:
        "One integration: its capabilities, the events it brought in the last 24 hours and those not seen yet, recent activity, list targeting, recommendations and available actions. 404 'Integration not found'",
      params: IntegrationPath,
      response: view({
        integration: IntegrationView,
        capabilities: view({ webhooks: t.boolean, sync: NullableString, webhookUrl: t.string }),
        events: t.array(t.string),
        unusedEvents: t.array(t.string),
        activity: view({
          windowHours: t.number,
          received: t.number,
          processed: t.number,
          skipped: t.number,
          failed: t.number,
          lastReceivedAt: NullableTimestamp,
        }),
        ingestion: view({ listTargeting: t.string, listIds: t.array(t.string) }),
        pixel: t.null,
        recommendations: t.array(t.string),
        availableActions: t.array(t.string),
      }),
      errors: [404],
      handle: async ({ input, actor }) => uses.get.execute(actor, input.params.integrationId),
    }),
    defineRoute({
      method: "patch",
      path: "/integrations/:integrationId",
      tag: "Integrations",
      scopes: ["integrations:manage"],
      summary:
        "Change syncEnabled (off: webhooks are recorded but not applied, no sync runs) and/or listIds (the lists contacts the integration brings join; []: none; null: the company default). 400 when neither is given; 404 for an unknown integration or list",
      params: IntegrationPath,
      body: UpdateIntegrationCommand,
      response: view({
        integrationId: t.string,
        provider: t.string,
        syncEnabled: t.boolean,
        listTargeting: t.string,
        listIds: t.array(t.string),
        changed: t.boolean,
        changedFields: t.array(t.string),
        message: t.string,
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.update.execute(actor, input.params.integrationId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/integrations/:integrationId/sync",
      tag: "Integrations",
      scopes: ["integrations:manage"],
      summary:
        "Run the provider's sync in the background (payments: revenue history as ecommerce.order_placed; posthog: event history; affonso: referrals). 409 while a sync is queued or running; 400 for a disconnected integration, a provider with nothing to sync, or sync disabled",
      params: IntegrationPath,
      response: view({
        integrationId: t.string,
        provider: t.string,
        jobId: NullableString,
        syncStatus: NullableString,
        syncTarget: t.string,
        message: t.string,
      }),
      errors: [400, 404, 409],
      handle: async ({ input, actor }) => uses.sync.execute(actor, input.params.integrationId),
    }),
    defineRoute({
      method: "post",
      path: "/integrations/:integrationId/disconnect",
      tag: "Integrations",
      scopes: ["integrations:manage"],
      summary:
        "Disconnect: the credentials are erased, webhooks are refused from then on and the provider account may connect to another workspace; recorded events stay",
      params: IntegrationPath,
      response: view({ integrationId: t.string, provider: t.string, disconnected: t.literal(true), changed: t.boolean, message: t.string }),
      errors: [404],
      handle: async ({ input, actor }) => uses.disconnect.execute(actor, input.params.integrationId),
    }),
  ],
);
