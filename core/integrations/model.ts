import type { AttributeValue } from "../subscribers/model.js";

/** The nine providers connected with credentials (spec, POST /integrations/connect; compat-reference §23), in the spec's order. */
export const PROVIDERS = ["polar", "paddle", "dodo", "whop", "creem", "chargebee", "clerk", "posthog", "affonso"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const isProvider = (code: string): code is Provider => (PROVIDERS as readonly string[]).includes(code);

/** Providers connected through OAuth, an app install or a plugin: only in the dashboard (400 on connect). */
export const DASHBOARD_ONLY_PROVIDERS = ["stripe", "shopify", "woocommerce", "supabase", "github", "meta", "wix", "webflow"] as const;

export type ProviderCategory = "payments" | "auth" | "analytics" | "affiliate";

export const PAYMENT_PROVIDERS: readonly Provider[] = ["polar", "paddle", "dodo", "whop", "creem", "chargebee"];
export const isPaymentProvider = (provider: Provider): boolean => PAYMENT_PROVIDERS.includes(provider);

/** What a sync of the provider reads: revenue history (payments), analytics history, affiliate referrals. */
export type SyncKind = "revenue" | "history" | "backfill";

/** Where a sync stands (the spec's syncStatus; null before the first). */
export const SYNC_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** A sync under way or last run: resumed from its cursor after a crash. */
export interface SyncState {
  readonly kind: SyncKind;
  /** The provider's next page (a page number, an offset or a cursor), null before the first. */
  readonly cursor: string | null;
  readonly pagesRead: number;
  readonly recorded: number;
  readonly skipped: number;
  readonly startedAt: string;
  readonly finishedAt: string | null;
}

/** Where the contacts an integration creates go (compat-reference §23, PATCH): null is the company default (no list). */
export type ListTargeting = "company_default" | "none" | "specific";

export const listTargetingOf = (listIds: readonly string[] | null): ListTargeting =>
  listIds === null ? "company_default" : listIds.length === 0 ? "none" : "specific";

export interface IntegrationSettings {
  /** Analytics provider: sync every non-internal event (default), or only `eventAllowlist`. */
  readonly syncAllEvents?: boolean;
  readonly eventAllowlist?: readonly string[];
  /** Lists new contacts join; null: the company default. */
  readonly listIds: readonly string[] | null;
}

/** The analytics provider's history import credentials. */
export interface HistoryImport {
  readonly region: "us" | "eu";
  readonly projectId: string;
  readonly personalApiKey: string;
}

/** What is sealed: never returned, never stored in plain text. */
export interface IntegrationCredentials {
  readonly apiKey: string | null;
  readonly webhookSecret: string;
  readonly historyImport: HistoryImport | null;
}

export interface Integration {
  readonly id: string;
  readonly companyId: string;
  readonly provider: Provider;
  readonly name: string;
  readonly providerAccountId: string;
  /** False once disconnected: its webhooks are refused, its account may connect elsewhere. */
  readonly isActive: boolean;
  readonly syncEnabled: boolean;
  readonly syncStatus: SyncStatus | null;
  readonly credentialsSealed: string;
  readonly settings: IntegrationSettings;
  readonly syncState: SyncState | null;
  readonly lastSyncAt: Date | null;
  readonly lastSyncError: string | null;
  readonly connectedAt: Date;
  readonly updatedAt: Date;
}

/** Statuses of a webhook delivery (compat-reference §23, activity). */
export const DELIVERY_STATUSES = ["received", "queued", "processed", "skipped", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A provider webhook, stored once per provider event ID before it is processed. */
export interface IntegrationDelivery {
  readonly id: string;
  readonly companyId: string;
  readonly integrationId: string;
  readonly provider: Provider;
  readonly providerEventId: string;
  readonly eventType: string;
  readonly status: DeliveryStatus;
  readonly body: string;
  readonly outcome: DeliveryOutcome | null;
  readonly error: string | null;
  readonly receivedAt: Date;
  readonly processedAt: Date | null;
}

/** What processing a delivery did. */
export interface DeliveryOutcome {
  readonly subscriberIds: readonly string[];
  readonly events: readonly string[];
  readonly reason?: string;
}

/** One custom event a provider's record becomes. */
export interface MappedEvent {
  readonly name: string;
  readonly properties: Record<string, unknown>;
  readonly occurredAt: Date;
  /** Unique per contact and name: a redelivered or re-synced record is recorded once. */
  readonly eventId: string;
}

/** What a provider's record says about one person: who, their attributes, their events. */
export interface ContactActivity {
  readonly email: string | null;
  /** The provider's own customer ID, when the email must be looked up (Paddle sends only the ID). */
  readonly providerCustomerId?: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly attributes: Record<string, AttributeValue>;
  readonly events: readonly MappedEvent[];
}

/** A provider record mapped: the people it concerns, or why it is skipped. */
export type MappedRecord =
  { readonly kind: "activities"; readonly activities: readonly ContactActivity[] } | { readonly kind: "skipped"; readonly reason: string };

export const skipped = (reason: string): MappedRecord => ({ kind: "skipped", reason });
export const activities = (...list: ContactActivity[]): MappedRecord => ({ kind: "activities", activities: list });

/** The canonical events integrations record, so sequences and the commerce forecast read one name whatever the provider. */
export const INTEGRATION_EVENTS = {
  order: "ecommerce.order_placed",
  subscriptionStarted: "saas.subscription_started",
  subscriptionCancelled: "saas.subscription_cancelled",
  refund: "saas.refund_issued",
  signup: "saas.signup",
  affiliateJoined: "affiliate.joined",
  referralCreated: "affiliate.referral_created",
  referralConverted: "affiliate.referral_converted",
} as const;
