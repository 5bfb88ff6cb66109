import { sendingTime } from "./sending-window.js";
import type { Enrollment } from "./enrollment.js";
import type { Sequence } from "./model.js";

/**
 * Realigning a sequence's waiting runs with its sending window as it is now (compat-reference
 * §10, Realign). A run waits at an email step only for the window: when the window changed (other
 * hours, days or zone, or none), its stored time is moved to the first moment the window allows
 * from now. Runs waiting out a delay or for an event are left as they are: the window applies when
 * they reach their email.
 */

export type RealignmentStatus = "queued" | "running" | "completed" | "failed";
export const REALIGNMENT_STATUSES: readonly RealignmentStatus[] = ["queued", "running", "completed", "failed"];

/** Why a scanned run keeps its time. */
export type UnchangedReason = "already_aligned" | "not_waiting_for_sending_window";

export interface RealignmentCounts {
  readonly scannedCount: number;
  readonly realignedCount: number;
  readonly unchangedCount: number;
  readonly unchangedReasons: Readonly<Partial<Record<UnchangedReason, number>>>;
  /** Realigned runs due at once whose engine job could not be queued (the minute sweep still takes them). */
  readonly requeueFailedCount: number;
}

export const NO_COUNTS: RealignmentCounts = { scannedCount: 0, realignedCount: 0, unchangedCount: 0, unchangedReasons: {}, requeueFailedCount: 0 };

/** A realignment applied in the background. */
export interface Realignment {
  readonly id: string;
  readonly companyId: string;
  readonly sequenceId: string;
  readonly status: RealignmentStatus;
  readonly nodeIds: readonly string[] | null;
  readonly subscriberIds: readonly string[] | null;
  /** The greatest enrollment ID done; null before the first page. */
  readonly cursor: string | null;
  readonly result: RealignmentCounts;
  readonly error: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
}

export type RunPlan = { readonly kind: "realign"; readonly from: Date; readonly to: Date } | { readonly kind: "unchanged"; readonly reason: UnchangedReason };

/** What realigning does to one waiting run of the sequence at `now`. */
export function planRun(sequence: Sequence, enrollment: Enrollment, now: Date): RunPlan {
  const node = sequence.graph.nodes.find((candidate) => candidate.id === enrollment.currentNodeId);
  if (node?.nodeType !== "action_email" || enrollment.status !== "waiting" || !enrollment.dueAt)
    return { kind: "unchanged", reason: "not_waiting_for_sending_window" };
  const to = sendingTime(sequence, now);
  // A second apart is the same time (due times are stored to the millisecond).
  if (Math.abs(to.getTime() - enrollment.dueAt.getTime()) < 1000) return { kind: "unchanged", reason: "already_aligned" };
  return { kind: "realign", from: enrollment.dueAt, to };
}

/** The counts after one more run's plan. */
export function tally(counts: RealignmentCounts, plan: RunPlan): RealignmentCounts {
  if (plan.kind === "realign") return { ...counts, scannedCount: counts.scannedCount + 1, realignedCount: counts.realignedCount + 1 };
  return {
    ...counts,
    scannedCount: counts.scannedCount + 1,
    unchangedCount: counts.unchangedCount + 1,
    unchangedReasons: { ...counts.unchangedReasons, [plan.reason]: (counts.unchangedReasons[plan.reason] ?? 0) + 1 },
  };
}
