import type { OperationFailure, OperationKind, OperationStatus, SubscriberOperation } from "./model.js";

/** The operation as the API shows it (spec resource "Subscriber operation (bulk)"). */
export interface OperationView {
  readonly id: string;
  readonly companyId: string;
  readonly kind: OperationKind;
  readonly status: OperationStatus;
  readonly total: number;
  readonly processed: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly error: string | null;
  readonly failures: readonly OperationFailure[];
  readonly createdAt: string;
  /** When it ended (completed, failed or cancelled); null while queued or running. */
  readonly completedAt: string | null;
  /** When the record is removed (30 days after it ended); null while queued or running. */
  readonly expiresAt: string | null;
}

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
