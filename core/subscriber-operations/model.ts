import type { FilterGroup } from "../segments/model.js";
import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";

/**
 * Subscriber operations: bulk work over a selection of contacts that runs in the background
 * (spec resource "Subscriber operation (bulk)"). The only kind so far is `add_tags`.
 *
 * Life of an operation: `queued` until the first job step starts it; `running` while its
 * selection is queued page by page (total grows) and its items are processed batch by batch;
 * `completed` once every selected contact is processed; `failed` when the job gave up;
 * `cancelled` when asked before it ended (honoured between batches).
 */

export const OPERATION_KINDS = ["add_tags"] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

export const OPERATION_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

export const TERMINAL_STATUSES: readonly OperationStatus[] = ["completed", "failed", "cancelled"];
export const isTerminal = (status: OperationStatus): boolean => TERMINAL_STATUSES.includes(status);

/** The record keeps the first failures only (spec, Limits). */
export const MAX_RECORDED_FAILURES = 20;
/** Tags one operation adds (compat-reference §4). */
export const MAX_OPERATION_TAGS = 25;
/** Contacts an audience may name one by one (compat-reference §4). */
export const MAX_AUDIENCE_SUBSCRIBER_IDS = 1000;
/** A finished operation's record is kept this long, then swept. */
export const RETENTION_MS = 30 * 86_400_000;

export interface OperationFailure {
  readonly subscriberId: string;
  readonly error: string;
}

/** Which contacts an operation works on: every condition given must hold (none = every contact). */
export interface OperationAudience {
  readonly subscriberIds: readonly string[] | null;
  readonly listId: string | null;
  /** Full email = exact match; otherwise a substring of email, externalId, names or a tag name. */
  readonly search: string | null;
  readonly activeOnly: boolean;
  /**
   * A segment filter tree and the trees of the segments it references, snapshotted when the
   * operation starts, so every page of the selection reads the same definition.
   */
  readonly filter: { readonly root: FilterGroup; readonly referenced: ReadonlyMap<string, FilterGroup> } | null;
}

export const EVERYONE: OperationAudience = { subscriberIds: null, listId: null, search: null, activeOnly: false, filter: null };

export interface AddTagsParams {
  /** Normalised tag names. */
  readonly tags: readonly string[];
  readonly triggerAutomations: boolean;
  readonly audience: OperationAudience;
}

export interface SubscriberOperation {
  readonly id: string;
  readonly companyId: string;
  readonly kind: OperationKind;
  /** The caller's idempotency key, unique per company. */
  readonly requestKey: string;
  readonly status: OperationStatus;
  readonly params: AddTagsParams;
  /** Contacts selected so far; grows while the selection is queued. */
  readonly total: number;
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly error: string | null;
  /** The first failures, at most MAX_RECORDED_FAILURES. */
  readonly failures: readonly OperationFailure[];
  /** True once the whole selection is queued (total is final). */
  readonly selectionComplete: boolean;
  readonly cancelRequested: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly completedAt: Date | null;
  /** When the record of a finished operation is removed: RETENTION_MS after it ended. */
  readonly expiresAt: Date | null;
}

export type OperationEvent =
  /** The first job step picks the operation up. */
  | { readonly type: "start" }
  /** A page of the selection was queued: `total` contacts are selected so far. */
  | { readonly type: "selectionQueued"; readonly total: number; readonly complete: boolean }
  /** A batch of selected contacts was processed. */
  | { readonly type: "batchProcessed"; readonly succeeded: number; readonly failures: readonly OperationFailure[] }
  /** Every selected contact is processed. */
  | { readonly type: "finish" }
  /** The job gave up. */
  | { readonly type: "fail"; readonly error: string }
  | { readonly type: "cancel" };

const ended = (operation: SubscriberOperation, status: OperationStatus, now: Date): SubscriberOperation => ({
  ...operation,
  status,
  updatedAt: now,
  completedAt: now,
  expiresAt: new Date(now.getTime() + RETENTION_MS),
});

const refuse = (operation: SubscriberOperation, event: OperationEvent) =>
  fail<SubscriberOperation>(
    invalidState(
      event.type === "cancel"
        ? `Operation is already ${operation.status} and cannot be cancelled`
        : `Operation is ${operation.status}: cannot apply ${event.type}`,
    ),
  );

/** The pure state machine of an operation: every change of status and counters goes through here. */
export function transition(operation: SubscriberOperation, event: OperationEvent, now: Date): Result<SubscriberOperation> {
  const { status } = operation;
  switch (event.type) {
    case "start":
      return status === "queued" ? ok({ ...operation, status: "running", updatedAt: now }) : refuse(operation, event);
    case "selectionQueued":
      if (status !== "running" || operation.selectionComplete || event.total < operation.total) return refuse(operation, event);
      return ok({ ...operation, total: event.total, selectionComplete: event.complete, updatedAt: now });
    case "batchProcessed": {
      const count = event.succeeded + event.failures.length;
      if (status !== "running" || operation.processed + count > operation.total) return refuse(operation, event);
      return ok({
        ...operation,
        processed: operation.processed + count,
        succeeded: operation.succeeded + event.succeeded,
        failed: operation.failed + event.failures.length,
        failures: [...operation.failures, ...event.failures].slice(0, MAX_RECORDED_FAILURES),
        updatedAt: now,
      });
    }
    case "finish":
      if (status !== "running" || !operation.selectionComplete || operation.processed !== operation.total) return refuse(operation, event);
      return ok(ended(operation, "completed", now));
    case "fail":
      return status === "queued" || status === "running" ? ok({ ...ended(operation, "failed", now), error: event.error }) : refuse(operation, event);
    case "cancel":
      return status === "queued" || status === "running" ? ok({ ...ended(operation, "cancelled", now), cancelRequested: true }) : refuse(operation, event);
  }
}
