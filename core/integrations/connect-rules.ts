import { badRequest, invalid } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { catalogEntry, type ProviderEntry } from "./catalog.js";
import type { ConnectIntegrationCommand } from "./commands.js";
import { DASHBOARD_ONLY_PROVIDERS, isProvider, PROVIDERS, type IntegrationCredentials, type Provider } from "./model.js";

/** A bearer secret we accept for the analytics provider: it is the only thing that authenticates its webhooks. */
export const MIN_BEARER_SECRET = 16;

/** Chargebee's site name becomes the API host name (`{site}.chargebee.com`): letters, digits and hyphens only. */
const SITE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

export interface ConnectInput {
  readonly entry: ProviderEntry;
  readonly credentials: IntegrationCredentials;
  /** Given, or null when the provider resolves or derives it. */
  readonly providerAccountId: string | null;
}

/** The spec's table for POST /integrations/connect: which provider, which fields it needs, in which form. */
export function checkConnect(command: ConnectIntegrationCommand): Result<ConnectInput> {
  const code = command.provider.toLowerCase();
  if ((DASHBOARD_ONLY_PROVIDERS as readonly string[]).includes(code))
    return fail(badRequest(`${code} connects through OAuth, an app install or a plugin: connect it in the dashboard`));
  if (!isProvider(code)) {
    const message = `provider must be one of ${PROVIDERS.join(", ")}`;
    return fail(invalid(`Invalid request: ${message}`, [{ path: "provider", message }]));
  }
  const provider: Provider = code;
  const entry = catalogEntry(provider);
  if (entry.needsApiKey && !command.apiKey) return fail(badRequest(`apiKey is required for ${provider}`));
  if (entry.accountIdLabel && !command.providerAccountId)
    return fail(badRequest(`providerAccountId (the ${entry.name} ${entry.accountIdLabel}) is required for ${provider}`));
  if (entry.category !== "analytics" && (command.settings !== undefined || command.historyImport !== undefined))
    return fail(badRequest("settings and historyImport are accepted for the analytics provider (posthog) only"));
  if (provider === "chargebee" && !/^[^:]+:.+$/.test(command.webhookSecret))
    return fail(badRequest("webhookSecret for chargebee is the webhook's basic-auth credentials as username:password"));
  if (provider === "chargebee" && !SITE_NAME.test(command.providerAccountId ?? ""))
    return fail(badRequest("providerAccountId for chargebee is the site name (the part before .chargebee.com)"));
  if (provider === "whop" && !command.providerAccountId?.startsWith("biz_")) return fail(badRequest("providerAccountId for whop is the company ID (biz_...)"));
  if (provider === "posthog" && command.webhookSecret.length < MIN_BEARER_SECRET)
    return fail(badRequest(`webhookSecret for posthog must be at least ${MIN_BEARER_SECRET} characters`));
  return ok({
    entry,
    credentials: {
      apiKey: entry.needsApiKey ? command.apiKey! : null,
      webhookSecret: command.webhookSecret,
      historyImport: command.historyImport ?? null,
    },
    providerAccountId: entry.accountIdLabel ? command.providerAccountId! : null,
  });
}
