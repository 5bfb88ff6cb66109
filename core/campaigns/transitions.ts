import { invalidState, type DomainError } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignStatus } from "./model.js";

/**
 * The campaign state machine (compat-reference §11). Each move names the states it may start
 * from and the state it leads to; `edit` and `delete` keep the state and only say when they are
 * allowed. `start` and `finish` are the send engine's moves.
 */
export const CAMPAIGN_MOVES = ["edit", "delete", "schedule", "unschedule", "start", "pause", "resume", "finish", "cancel"] as const;
export type CampaignMove = (typeof CAMPAIGN_MOVES)[number];

interface MoveRule {
  readonly from: readonly CampaignStatus[];
  /** Null: the state stays as it is. */
  readonly to: CampaignStatus | null;
  /** What the refusal says is needed, after "Campaign is <state>: ". */
  readonly needs: string;
}

export const CAMPAIGN_TRANSITIONS: Readonly<Record<CampaignMove, MoveRule>> = {
  edit: { from: ["draft"], to: null, needs: "only draft campaigns can be edited (unschedule it first)" },
  delete: {
    from: ["draft", "sent", "cancelled"],
    to: null,
    needs: "scheduled, sending and paused campaigns must be cancelled (or unscheduled) before they are deleted",
  },
  // Scheduling a scheduled campaign again replaces its schedule.
  schedule: { from: ["draft", "scheduled"], to: "scheduled", needs: "only draft or scheduled campaigns can be scheduled" },
  unschedule: { from: ["scheduled"], to: "draft", needs: "only scheduled campaigns can be unscheduled" },
  start: { from: ["scheduled"], to: "sending", needs: "only scheduled campaigns can start sending" },
  pause: { from: ["sending"], to: "paused", needs: "only sending campaigns can be paused" },
  resume: { from: ["paused"], to: "sending", needs: "only paused campaigns can be resumed" },
  finish: { from: ["sending"], to: "sent", needs: "only sending campaigns can finish" },
  cancel: { from: ["scheduled", "sending", "paused"], to: "cancelled", needs: "only scheduled, sending or paused campaigns can be cancelled" },
};

export const INVALID_CAMPAIGN_STATE = "INVALID_CAMPAIGN_STATE";

export const illegalMove = (status: CampaignStatus, move: CampaignMove): DomainError =>
  invalidState(`Campaign is ${status}: ${CAMPAIGN_TRANSITIONS[move].needs}`, { code: INVALID_CAMPAIGN_STATE, extra: { status } });

/** The state after `move` from `status`, or a 400 naming the current state. */
export function transition(status: CampaignStatus, move: CampaignMove): Result<CampaignStatus> {
  const rule = CAMPAIGN_TRANSITIONS[move];
  if (!rule.from.includes(status)) return fail(illegalMove(status, move));
  return ok(rule.to ?? status);
}
