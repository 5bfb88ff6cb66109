import type { Provider, ProviderCategory, SyncKind } from "./model.js";
import { INTEGRATION_EVENTS as E } from "./model.js";

/** How a provider connects and what it brings: the catalog route, the connect rules and the README read this one table. */
export interface ProviderEntry {
  readonly provider: Provider;
  readonly name: string;
  readonly category: ProviderCategory;
  readonly connectMethod: "api_key" | "webhook_secret";
  /** apiKey is required (all but the identity and analytics providers). */
  readonly needsApiKey: boolean;
  /** `providerAccountId` must be given, and what it is; null: resolved from the key or derived. */
  readonly accountIdLabel: string | null;
  readonly webhookSecretHint: string;
  /** How its webhooks are signed. */
  readonly signature: string;
  readonly events: readonly string[];
  readonly attributes: readonly string[];
  readonly sync: SyncKind | null;
  readonly caveats: readonly string[];
}

const PAYMENT_EVENTS = [E.order, E.subscriptionStarted, E.subscriptionCancelled, E.refund];
const PAYMENT_ATTRIBUTES = ["CustomerId", "Plan", "SubscriptionStatus", "LastOrderAt"];
const STANDARD_WEBHOOKS = "Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>)";

export const PROVIDER_CATALOG: readonly ProviderEntry[] = [
  {
    provider: "polar",
    name: "Polar",
    category: "payments",
    connectMethod: "api_key",
    needsApiKey: true,
    accountIdLabel: null,
    webhookSecretHint: "the webhook endpoint's secret",
    signature: STANDARD_WEBHOOKS,
    events: PAYMENT_EVENTS,
    attributes: PAYMENT_ATTRIBUTES.map((name) => `polar${name}`),
    sync: "revenue",
    caveats: ["apiKey is an organization access token with orders:read; the organization is resolved from it"],
  },
  {
    provider: "paddle",
    name: "Paddle",
    category: "payments",
    connectMethod: "api_key",
    needsApiKey: true,
    accountIdLabel: "seller ID",
    webhookSecretHint: "the notification destination's secret key",
    signature: "Paddle-Signature: ts=<unix>;h1=<hex HMAC-SHA256 of ts:body>",
    events: PAYMENT_EVENTS,
    attributes: PAYMENT_ATTRIBUTES.map((name) => `paddle${name}`),
    sync: "revenue",
    caveats: ["Paddle Billing only; sandbox keys (pdl_sdbx_) use the sandbox API", "the API key needs transaction and customer read permission"],
  },
  {
    provider: "dodo",
    name: "Dodo Payments",
    category: "payments",
    connectMethod: "api_key",
    needsApiKey: true,
    accountIdLabel: "business ID",
    webhookSecretHint: "the webhook's signing secret (whsec_...)",
    signature: STANDARD_WEBHOOKS,
    events: PAYMENT_EVENTS,
    attributes: PAYMENT_ATTRIBUTES.map((name) => `dodo${name}`),
    sync: "revenue",
    caveats: ["a key of test mode is tried against the test API when the live API refuses it"],
  },
  {
    provider: "whop",
    name: "Whop",
    category: "payments",
    connectMethod: "api_key",
    needsApiKey: true,
    accountIdLabel: "company ID (biz_...)",
    webhookSecretHint: "the webhook's secret",
    signature: STANDARD_WEBHOOKS,
    events: PAYMENT_EVENTS,
    attributes: PAYMENT_ATTRIBUTES.map((name) => `whop${name}`),
    sync: "revenue",
    caveats: ["amounts Whop sends in major units are recorded in minor units (cents)"],
  },
  {
    provider: "creem",
    name: "Creem",
    category: "payments",
    connectMethod: "api_key",
    needsApiKey: true,
    accountIdLabel: "store ID",
    webhookSecretHint: "the webhook's signing secret",
    signature: "creem-signature: <hex HMAC-SHA256 of the body>",
    events: PAYMENT_EVENTS,
    attributes: PAYMENT_ATTRIBUTES.map((name) => `creem${name}`),
    sync: "revenue",
    caveats: ["test keys (creem_test_) use the test API", "Creem signs no timestamp: redeliveries are recognised by event ID"],
  },
  {
    provider: "chargebee",
    name: "Chargebee",
    category: "payments",
    connectMethod: "api_key",
    needsApiKey: true,
    accountIdLabel: "site name",
    webhookSecretHint: "the webhook's basic-auth credentials as username:password",
    signature: "HTTP basic authentication with the webhook's username and password",
    events: PAYMENT_EVENTS,
    attributes: PAYMENT_ATTRIBUTES.map((name) => `chargebee${name}`),
    sync: "revenue",
    caveats: ["Chargebee signs no timestamp: redeliveries are recognised by event ID"],
  },
  {
    provider: "clerk",
    name: "Clerk",
    category: "auth",
    connectMethod: "webhook_secret",
    needsApiKey: false,
    accountIdLabel: null,
    webhookSecretHint: "the endpoint's signing secret (whsec_...)",
    signature: "Svix: svix-id, svix-timestamp, svix-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>)",
    events: [E.signup],
    attributes: ["clerkUserId"],
    sync: null,
    caveats: ["user.created records a signup; user.updated refreshes names; the account is derived from the signing secret"],
  },
  {
    provider: "posthog",
    name: "PostHog",
    category: "analytics",
    connectMethod: "webhook_secret",
    needsApiKey: false,
    accountIdLabel: null,
    webhookSecretHint: "a secret of your choice (at least 16 characters), sent by the HTTP webhook destination as Authorization: Bearer <secret>",
    signature: "Authorization: Bearer <webhookSecret> (set in the destination's headers); the body is the destination's default {event, person}",
    events: ["(the event's own name)"],
    attributes: ["posthogDistinctId"],
    sync: "history",
    caveats: [
      "events whose name begins with $ are internal and skipped unless allow-listed",
      "the contact's email is read from the person's properties; events of persons without one are skipped",
      "historyImport needs a personal API key with query read access",
    ],
  },
  {
    provider: "affonso",
    name: "Affonso",
    category: "affiliate",
    connectMethod: "api_key",
    needsApiKey: true,
    accountIdLabel: null,
    webhookSecretHint: "the endpoint's signing secret",
    signature: "X-Affonso-Signature: t=<unix>,v1=<hex HMAC-SHA256 of t.body>",
    events: [E.affiliateJoined, E.referralCreated, E.referralConverted],
    attributes: ["affonsoAffiliateId", "affonsoReferredBy"],
    sync: "backfill",
    caveats: ["the connection backfills existing referrals"],
  },
];

export const catalogEntry = (provider: Provider): ProviderEntry => PROVIDER_CATALOG.find((entry) => entry.provider === provider)!;
