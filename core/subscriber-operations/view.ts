import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { OPERATION_KINDS, OPERATION_STATUSES, type SubscriberOperation } from "./model.js";

/** The operation as the API shows it (spec resource "Subscriber operation (bulk)"). */
export const OperationView = view(
  {
    id: Id,
    companyId: Id,
    kind: oneOf(OPERATION_KINDS, "OperationKind"),
    status: oneOf(OPERATION_STATUSES, "OperationStatus"),
    total: t.number,
    processed: t.number,
    succeeded: t.number,
    failed: t.number,
    error: NullableString,
    failures: t.readonlyArray(view({ subscriberId: Id, error: t.string }, "OperationFailure")),
    createdAt: Timestamp,
    /** When it ended (completed, failed or cancelled); null while queued or running. */
    completedAt: NullableTimestamp,
    /** When the record is removed (30 days after it ended); null while queued or running. */
    expiresAt: NullableTimestamp,
  },
  "SubscriberOperation",
);
export type OperationView = t.TypeOf<typeof OperationView>;

/** One contact the request named that could not be processed, by the identifier it was named with. */
export const BulkTagFailure = t.union([view({ email: t.string, error: t.string }), view({ subscriberId: Id, error: t.string })], "BulkTagFailure");
export type BulkTagFailure = t.TypeOf<typeof BulkTagFailure>;

/** The answer to a bulk tag change over contacts named in the request. */
export const BulkTagOutcome = view(
  {
    /** Normalised names. */
    tags: t.readonlyArray(t.string),
    /** Identifiers given (emails, externalIds and subscriberIds together). */
    requested: t.number,
    /** Distinct contacts found. */
    matched: t.number,
    /** Contacts whose tags changed. */
    updated: t.number,
    /** Contacts that already had every tag (add) or none of them (remove). */
    unchanged: t.number,
    failed: t.number,
    /** Identifiers that name no contact of the company; no contact is created. */
    notFound: view({ emails: t.readonlyArray(t.string), externalIds: t.readonlyArray(t.string), subscriberIds: t.readonlyArray(t.string) }),
    failures: t.readonlyArray(BulkTagFailure),
    triggeredAutomations: t.boolean,
  },
  "BulkTagOutcome",
);
export type BulkTagOutcome = t.TypeOf<typeof BulkTagOutcome>;

export const toOperationView = (operation: SubscriberOperation): OperationView => ({
  id: operation.id,
  companyId: operation.companyId,
  kind: operation.kind,
  status: operation.status,
  total: operation.total,
  processed: operation.processed,
  succeeded: operation.succeeded,
  failed: operation.failed,
  error: operation.error,
  failures: operation.failures.map(({ subscriberId, error }) => ({ subscriberId, error })),
  createdAt: operation.createdAt.toISOString(),
  completedAt: operation.completedAt?.toISOString() ?? null,
  expiresAt: operation.expiresAt?.toISOString() ?? null,
});
