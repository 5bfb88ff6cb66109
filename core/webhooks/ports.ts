import type { JobRequest } from "../ports/job-queue.js";
import { token } from "../shared/token.js";
import type { Webhook, WebhookDelivery, WebhookEvent, WebhookEventType, WebhookSigningSecret, WebhookStatus } from "./model.js";

/**
 * The one way events leave for customers' webhooks: every source (email pipeline, contacts,
 * sequences) hands its events here. Each event becomes one delivery (with a job) per enabled
 * webhook of the company subscribed to its type; a company without webhooks costs one indexed
 * lookup. The database adapter also publishes inside a repository's own transaction, so an event
 * exists exactly when the change it reports was committed.
 */
export interface WebhookPublisher {
  publish(companyId: string, events: readonly WebhookEvent[]): Promise<void>;
}
export const WebhookPublisher = token<WebhookPublisher>("lifecycle.WebhookPublisher");

/** Signs a delivery: the X-Sequenzy-Signature value for the given secrets. */
export interface WebhookSigner {
  /** One `v1=<hex HMAC-SHA256 of "v1:{timestamp}:{body}">` per secret, comma-separated. */
  signature(secrets: readonly string[], timestamp: number, body: string): string;
}
export const WebhookSigner = token<WebhookSigner>("lifecycle.WebhookSigner");

export interface WebhookChanges {
  readonly name?: string;
  readonly url?: string;
  readonly events?: readonly WebhookEventType[];
  readonly status?: WebhookStatus;
}

/** A webhook with its signing secrets (sealed), newest first. */
export interface WebhookWithSecrets {
  readonly webhook: Webhook;
  readonly secrets: readonly WebhookSigningSecret[];
}

/** Deliveries of one webhook, with the webhook and its secrets. */
export interface DeliveriesOfWebhook {
  readonly found: WebhookWithSecrets;
  readonly deliveries: readonly WebhookDelivery[];
}

/** What one attempt at a delivery found. */
export interface AttemptResult {
  /** False when no request was made (the webhook was disabled): attempts and health stay as they are. */
  readonly made: boolean;
  readonly ok: boolean;
  readonly responseCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly at: Date;
  /** The webhook had no failures in a row and no circuit when the attempt started: a success has nothing to reset. */
  readonly healthyBefore: boolean;
  /** Null after a success, or when the retry window is spent (the delivery fails for good). */
  readonly retry: { readonly at: Date; readonly job: JobRequest } | null;
}

export interface RecordedAttempt {
  readonly delivery: WebhookDelivery;
  readonly result: AttemptResult;
}

/** A company's outbound webhooks and their deliveries. Every method names the company. */
export interface WebhookRepository {
  /** Newest first. */
  list(companyId: string): Promise<WebhookWithSecrets[]>;
  find(companyId: string, webhookId: string): Promise<WebhookWithSecrets | null>;
  insert(webhook: Webhook, secret: WebhookSigningSecret): Promise<void>;
  /** Null when the company has no such webhook. */
  update(companyId: string, webhookId: string, changes: WebhookChanges, at: Date): Promise<WebhookWithSecrets | null>;
  /** Deletes the webhook and its delivery history; false when the company has no such webhook. */
  delete(companyId: string, webhookId: string): Promise<boolean>;
  /**
   * Adds `secret` as the current one; the secrets current until now expire at `expireAt`, and
   * those already expired are removed. Null when the company has no such webhook.
   */
  rotateSecret(companyId: string, webhookId: string, secret: WebhookSigningSecret, expireAt: Date): Promise<WebhookWithSecrets | null>;
  /** The newest `limit` deliveries of the webhook. */
  listDeliveries(companyId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]>;
  findDelivery(companyId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** The company's deliveries among `deliveryIds`, by webhook with its secrets, in one read: what attempts need. */
  findForAttempts(companyId: string, deliveryIds: readonly string[]): Promise<ReadonlyArray<DeliveriesOfWebhook>>;
  /** Stores a delivery with the job that makes its first attempt (if any), in one transaction; the job's ID. */
  insertDelivery(delivery: WebhookDelivery, job: JobRequest | null): Promise<string | null>;
  /**
   * Records attempts, in order, each on a delivery still as given (pending, with its attempts so
   * far), the webhook's health after each (healthAfter), and queues their retries, in one
   * transaction. Each delivery as recorded, or null when it changed meanwhile (gone, or this
   * attempt recorded by another run).
   */
  recordAttempts(attempts: readonly RecordedAttempt[]): Promise<Array<WebhookDelivery | null>>;
  /** Moves pending deliveries' attempt to `at` (an open circuit) with the job that makes it. */
  postpone(companyId: string, deliveryIds: readonly string[], at: Date, job: JobRequest): Promise<void>;
}
export const WebhookRepository = token<WebhookRepository>("lifecycle.WebhookRepository");
