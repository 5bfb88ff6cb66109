import { isServiceMail, type EmailSend } from "../delivery/model.js";

/** Whether a company may send: `paused` holds marketing and sequence mail, `suspended` holds everything. */
export const SENDING_STATUSES = ["active", "paused", "suspended"] as const;
export type SendingStatus = (typeof SENDING_STATUSES)[number];

/** Why sending stopped (compat-reference §25); this service pauses on its own for the first and third. */
export const PAUSE_REASON_KINDS = ["high_hard_bounce_rate", "high_soft_bounce_rate", "high_complaint_rate", "phishing_guard", "manual", "other"] as const;
export type PauseReasonKind = (typeof PAUSE_REASON_KINDS)[number];

export interface SendingState {
  readonly status: SendingStatus;
  readonly pauseReasonKind: PauseReasonKind | null;
  readonly pauseReason: string | null;
  readonly pausedAt: Date | null;
  /** Bounce rates count only sends made after this (a self-resume after cleaning the list sets it). */
  readonly bounceResetAt: Date | null;
  /** Complaint rates count only sends made after this (an operator's resume sets it). */
  readonly complaintResetAt: Date | null;
}

/** A company that never had a pause. */
export const ACTIVE_SENDING: SendingState = {
  status: "active",
  pauseReasonKind: null,
  pauseReason: null,
  pausedAt: null,
  bounceResetAt: null,
  complaintResetAt: null,
};

/** How serious a state is: an automatic pause only ever makes it more serious, never less. */
export function severityOf(state: Pick<SendingState, "status" | "pauseReasonKind">): number {
  if (state.status === "suspended") return 3;
  if (state.status === "active") return 0;
  // A bounce pause is the company's own list to clean; any other pause needs a person to look.
  return state.pauseReasonKind === "high_hard_bounce_rate" ? 1 : 2;
}

/** Whether the state holds this send back until sending resumes. */
export function holdsSend(state: Pick<SendingState, "status">, send: Pick<EmailSend, "emailType" | "sendKind">): boolean {
  if (state.status === "active") return false;
  if (state.status === "suspended") return true;
  // A paused company's customers still get their receipts and password resets.
  return !isServiceMail(send);
}

/** Only a pause for hard bounces is the company's to lift, once it confirms the list is clean. */
export const canSelfResume = (state: Pick<SendingState, "status" | "pauseReasonKind">): boolean =>
  state.status === "paused" && state.pauseReasonKind === "high_hard_bounce_rate";
