import type { Knex } from "knex";
import { RUNNING_STATUSES } from "../../../core/sequences/enrollment.js";
import type { MovedEnrollment, MoveChange, Relocation } from "../../../core/sequences/enrollment-ports.js";
import { toDbDate } from "../row-codecs.js";
import { enrollmentsInIdOrder } from "./enrollments-in-id-order.js";

/**
 * Moves a sequence's running enrollments at some nodes in one UPDATE, rows locked in ID order (inside the caller's
 * transaction when given one): each goes on at once at the destination step, or ends at the
 * completion node. The row conditions are checked again as each row is written, so an enrollment
 * the engine moved on meanwhile is left alone; the step count goes up, so a run that read the
 * enrollment before cannot record a step over the move. Returns the enrollments moved.
 */
export async function relocateEnrollments(
  db: Knex | Knex.Transaction,
  companyId: string,
  sequenceId: string,
  relocation: Relocation,
  change: MoveChange,
  enrollmentIds?: readonly string[],
): Promise<MovedEnrollment[]> {
  if (relocation.fromNodeIds.length === 0 || enrollmentIds?.length === 0) return [];
  const at = toDbDate(change.at);
  const query = db("sequence_enrollments")
    .where({ company_id: companyId, sequence_id: sequenceId })
    .whereIn("status", RUNNING_STATUSES)
    .whereIn("current_node_id", [...relocation.fromNodeIds]);
  if (enrollmentIds) query.whereIn("id", [...enrollmentIds]);
  const moved = {
    // Every SET reads the row as it was: the node it is moved from.
    moved_from_node_id: db.raw("??", ["current_node_id"]),
    moved_at: at,
    move_reason: change.reason,
    moved_by: change.by,
    current_node_id: relocation.toNodeId,
    wait_until: null,
    failed_reason: null,
    updated_at: at,
    step_count: db.raw("step_count + 1"),
  };
  const update = relocation.completes
    ? { ...moved, status: "completed", due_at: null, finished_at: at, ...(change.keepEntryKey ? {} : { entry_key: null }) }
    : { ...moved, status: "active", due_at: at };
  const rows: Array<{ id: string; subscriber_id: string }> = await enrollmentsInIdOrder(db, query).update(update).returning(["id", "subscriber_id"]);
  return rows.map((row) => ({ id: row.id, subscriberId: row.subscriber_id }));
}
