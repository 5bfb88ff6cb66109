import type { Result } from "../shared/result.js";
import { token } from "../shared/token.js";
import type {
  DeliveryOutcome,
  DeliveryStatus,
  Integration,
  IntegrationCredentials,
  IntegrationDelivery,
  IntegrationSettings,
  MappedRecord,
  Provider,
  SyncKind,
  SyncState,
  SyncStatus,
} from "./model.js";

export interface IntegrationChanges {
  readonly name?: string;
  readonly providerAccountId?: string;
  readonly isActive?: boolean;
  readonly syncEnabled?: boolean;
  readonly syncStatus?: SyncStatus | null;
  readonly credentialsSealed?: string;
  readonly settings?: IntegrationSettings;
  readonly syncState?: SyncState | null;
  readonly lastSyncAt?: Date | null;
  readonly lastSyncError?: string | null;
  readonly connectedAt?: Date;
}

/** A company's integrations. Every method names the company, except the account check across workspaces. */
export interface IntegrationRepository {
  list(companyId: string, includeInactive: boolean): Promise<Integration[]>;
  find(companyId: string, integrationId: string): Promise<Integration | null>;
  findByProvider(companyId: string, provider: Provider): Promise<Integration | null>;
  /** The company whose active integration holds this provider account, if any. */
  accountHolder(provider: Provider, providerAccountId: string): Promise<string | null>;
  /** Inserts; false when the provider account is already held by another active integration (the unique index decides). */
  insert(integration: Integration): Promise<boolean>;
  /** Updates; false when the provider account is taken meanwhile; null when the row is gone. */
  update(companyId: string, integrationId: string, changes: IntegrationChanges, at: Date): Promise<Integration | null | false>;
  /** Moves syncStatus from one of `from` to `to`; false when it was elsewhere (a sync already running). */
  moveSyncStatus(
    companyId: string,
    integrationId: string,
    from: readonly (SyncStatus | null)[],
    to: SyncStatus,
    changes: IntegrationChanges,
    at: Date,
  ): Promise<boolean>;
}
export const IntegrationRepository = token<IntegrationRepository>("lifecycle.IntegrationRepository");

export interface DeliveryFilter {
  readonly integrationId?: string | undefined;
  readonly provider?: Provider | undefined;
  readonly status?: DeliveryStatus | undefined;
  readonly since: Date;
  readonly limit: number;
}

/** Provider webhooks, stored once per provider event ID. */
export interface IntegrationDeliveryRepository {
  /** False when the company already has this provider event (a redelivery). */
  insert(delivery: IntegrationDelivery): Promise<boolean>;
  findByEvent(companyId: string, provider: Provider, providerEventId: string): Promise<IntegrationDelivery | null>;
  find(companyId: string, deliveryId: string): Promise<IntegrationDelivery | null>;
  settle(companyId: string, deliveryId: string, status: DeliveryStatus, outcome: DeliveryOutcome | null, error: string | null, at: Date): Promise<void>;
  markQueued(companyId: string, deliveryId: string): Promise<void>;
  /** Newest first. */
  list(companyId: string, filter: DeliveryFilter): Promise<IntegrationDelivery[]>;
}
export const IntegrationDeliveryRepository = token<IntegrationDeliveryRepository>("lifecycle.IntegrationDeliveryRepository");

/** Request headers, names in lower case. */
export type WebhookHeaders = Readonly<Record<string, string | undefined>>;

/** Why a webhook was refused before anything was stored. */
export type SignatureVerdict = { readonly valid: true } | { readonly valid: false; readonly reason: string };

/** Checks a webhook against the provider's own signing scheme, with the replay window where the scheme signs a time. */
export interface WebhookSignatures {
  /** `body` is the raw request body, exactly as received. */
  verify(provider: Provider, secret: string, headers: WebhookHeaders, body: Uint8Array, now: Date): SignatureVerdict;
}
export const WebhookSignatures = token<WebhookSignatures>("lifecycle.WebhookSignatures");

/** Why the provider refused the credentials (spec: 400 invalid credential, 400 missing read permission). */
export type CredentialProblem = "invalid_credentials" | "missing_permission" | "unreachable";

export interface VerifiedAccount {
  /** Resolved from the key where the provider tells it; else the one given or derived. */
  readonly providerAccountId: string;
  readonly name: string | null;
}

/** One page of a sync: the records mapped, and where the next page starts (null: done). */
export interface SyncPage {
  readonly records: readonly MappedRecord[];
  readonly next: string | null;
}

/** The provider's API, through the outbound HTTP client. */
export interface ProviderApis {
  /** Validates the credentials where the provider offers a check; `accountId` is the given (or derived) account. */
  verify(provider: Provider, credentials: IntegrationCredentials, accountId: string | null): Promise<Result<VerifiedAccount>>;
  /** True when this provider's sync of this kind is implemented. */
  supportsSync(provider: Provider, kind: SyncKind): boolean;
  /** One page of the integration's sync, from `cursor` (null: the first). */
  syncPage(integration: Integration, kind: SyncKind, credentials: IntegrationCredentials, cursor: string | null): Promise<SyncPage>;
  /** The email of a provider customer named only by ID in webhooks (Paddle); null when unknown. */
  customerEmail(provider: Provider, credentials: IntegrationCredentials, customerId: string): Promise<string | null>;
}
export const ProviderApis = token<ProviderApis>("lifecycle.ProviderApis");

/** A provider call that failed in a way a retry may mend (network, 5xx, 429). */
export class ProviderUnavailable extends Error {
  override readonly name = "ProviderUnavailable";
}

/** The provider refused the credentials (401/403): no retry can help. */
export class ProviderRefused extends Error {
  override readonly name = "ProviderRefused";
}
