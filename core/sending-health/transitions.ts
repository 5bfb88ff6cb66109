import { severityOf, type SendingState } from "./model.js";
import type { Verdict } from "./thresholds.js";

/**
 * The state a verdict leads to, or null when the company is already stopped as seriously (a bounce
 * pause never softens a complaint pause). `pausedAt` stays when sending had already stopped.
 */
export function escalate(current: SendingState, verdict: Verdict, now: Date): SendingState | null {
  if (severityOf({ status: verdict.status, pauseReasonKind: verdict.kind }) <= severityOf(current)) return null;
  return {
    ...current,
    status: verdict.status,
    pauseReasonKind: verdict.kind,
    pauseReason: verdict.reason,
    pausedAt: current.status === "active" ? now : (current.pausedAt ?? now),
  };
}

/** Sending again after a hard-bounce pause: the bounce rate starts over from the cleaned list. */
export const selfResumed = (current: SendingState, now: Date): SendingState => ({
  ...current,
  status: "active",
  pauseReasonKind: null,
  pauseReason: null,
  pausedAt: null,
  bounceResetAt: now,
});

/** Sending again because the operator looked into it: both rates start over. */
export const operatorResumed = (current: SendingState, now: Date): SendingState => ({
  ...current,
  status: "active",
  pauseReasonKind: null,
  pauseReason: null,
  pausedAt: null,
  bounceResetAt: now,
  complaintResetAt: now,
});
