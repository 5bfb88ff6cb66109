import type { JobRequest } from "../ports/job-queue.js";
import type { OperationAudience, SubscriberOperation } from "./model.js";
import { token } from "../shared/token.js";

/** Contacts named one by one in a synchronous bulk request. */
export interface ContactIdentifiers {
  /** Lower-cased, valid addresses. */
  readonly emails: readonly string[];
  readonly externalIds: readonly string[];
  readonly subscriberIds: readonly string[];
}

export interface IdentifiedContact {
  readonly id: string;
  readonly email: string;
  readonly externalId: string | null;
}

export interface TagChange {
  /** Contacts whose set of tags changed. */
  readonly changed: readonly string[];
  /** Contacts that no longer exist (deleted since they were looked up). */
  readonly missing: readonly string[];
}

/** Synchronous tagging of a few hundred contacts, each call a handful of queries whatever the count. */
export interface BulkTagStore {
  /** The company's contacts matching any of the identifiers. */
  findContacts(companyId: string, identifiers: ContactIdentifiers): Promise<IdentifiedContact[]>;
  /** Adds the tags (creating missing ones) to the contacts, in one transaction. */
  addTags(companyId: string, subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange>;
  /** Removes the tags from the contacts, in one transaction. */
  removeTags(companyId: string, subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange>;
}
export const BulkTagStore = token<BulkTagStore>("lifecycle.BulkTagStore");

/**
 * What one job step may do, inside the transaction that holds the operation: queue a page of
 * its selection, and process a batch of queued contacts. Queued contacts are the
 * `subscriber_operation_items` of the operation, in subscriber ID order.
 */
export interface OperationStepWork {
  /** Up to `limit` IDs of the audience's contacts after `afterId` (exclusive), in ID order. */
  selectAudience(audience: OperationAudience, evaluatedAt: Date, afterId: string | null, limit: number): Promise<string[]>;
  /** The greatest subscriber ID queued so far (where the selection resumes). */
  lastQueuedId(): Promise<string | null>;
  /** Queues contacts (already queued ones are ignored); returns how many are queued in all. */
  queue(subscriberIds: readonly string[]): Promise<number>;
  /** Up to `limit` queued contacts still to process, in ID order. */
  pending(limit: number): Promise<string[]>;
  /** Adds the tags (creating missing ones) to those of the contacts that still exist; returns the missing ones. */
  addTags(subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange>;
  /** Marks queued contacts processed. */
  settle(done: readonly string[], failed: readonly string[]): Promise<void>;
  /** Queues a job in the step's transaction: it exists exactly when the step's changes do. */
  enqueue(job: JobRequest, now: Date): Promise<void>;
}

export interface SubscriberOperationRepository {
  /** Inserts the operation unless the company already has one with its request key; returns the stored one. */
  insertOrFind(operation: SubscriberOperation): Promise<{ readonly operation: SubscriberOperation; readonly created: boolean }>;
  find(companyId: string, id: string): Promise<SubscriberOperation | null>;
  /** Newest first. */
  listRecent(companyId: string, limit: number): Promise<SubscriberOperation[]>;
  /**
   * Saves the operation's status and the fields that go with it (error, cancelRequested,
   * completedAt, expiresAt), never its counters, if its status is still `expected`; false when a
   * concurrent step moved it.
   */
  saveStatus(operation: SubscriberOperation, expected: SubscriberOperation["status"]): Promise<boolean>;
  /**
   * Runs one job step in a single transaction with the operation locked (concurrent steps of the
   * same operation wait for each other). `work` returns the operation to save, or null to save
   * nothing. Resolves to the operation after the step, or null when it does not exist.
   */
  step(
    companyId: string,
    id: string,
    work: (operation: SubscriberOperation, tx: OperationStepWork) => Promise<SubscriberOperation | null>,
  ): Promise<SubscriberOperation | null>;
  /** Whether the list exists in the company. */
  listExists(companyId: string, listId: string): Promise<boolean>;
  /** Removes the records whose retention ended; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}
export const SubscriberOperationRepository = token<SubscriberOperationRepository>("lifecycle.SubscriberOperationRepository");
