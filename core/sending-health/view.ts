import * as t from "io-ts";
import { rate } from "../metrics/model.js";
import { oneOf } from "../shared/codecs.js";
import { NullableString, NullableTimestamp, view } from "../shared/view-fields.js";
import { canSelfResume, PAUSE_REASON_KINDS, SENDING_STATUSES, type SendingState } from "./model.js";
import { remediationFor } from "./remediation.js";
import {
  COMPLAINT_MINIMUM_SENDS,
  COMPLAINT_PAUSE_PERCENT,
  COMPLAINT_SUSPEND_PERCENT,
  HARD_BOUNCE_MINIMUM_SENDS,
  HARD_BOUNCE_PAUSE_PERCENT,
  RECENT_SENDS,
  type BounceWindow,
  type ComplaintWindow,
} from "./thresholds.js";

const SendingStatus = oneOf(SENDING_STATUSES, "SendingStatus");
const PauseReasonKind = t.union([oneOf(PAUSE_REASON_KINDS, "PauseReasonKind"), t.null]);

export const SelfResumeView = view(
  {
    canSelfResume: t.boolean,
    /** The company confirms its list is clean (listSanitizationConfirmed: true) to resume. */
    requiresListSanitizationConfirmation: t.boolean,
    /** Why not, or what resuming takes; null while active. */
    reason: NullableString,
  },
  "SelfResume",
);

/** The rates the state is judged by, each over the latest sends since its reset, with the thresholds. */
export const SenderHealthView = view(
  {
    recentSendLimit: t.number,
    bounceRateSends: t.number,
    hardBounces: t.number,
    hardBounceRate: t.number,
    softBounces: t.number,
    softBounceRate: t.number,
    complaintRateSends: t.number,
    complaints: t.number,
    complaintRate: t.number,
    thresholds: view({
      hardBounceRate: t.number,
      hardBounceMinimumSends: t.number,
      complaintRate: t.number,
      complaintSuspensionRate: t.number,
      complaintMinimumSends: t.number,
    }),
  },
  "SenderHealth",
);

export const MetricsWindowView = view(
  {
    kind: t.literal("all_time_since_reset"),
    expiresAt: t.null,
    bounceResetAt: NullableTimestamp,
    complaintResetAt: NullableTimestamp,
  },
  "MetricsWindow",
);

export const RemediationView = t.union([view({ summary: t.string, steps: t.readonlyArray(t.string) }, "Remediation"), t.null]);

/** GET /sending-status (compat-reference §25), plus heldSends: sends waiting for the resume. */
export const SendingStatusView = view(
  {
    status: SendingStatus,
    pauseReason: NullableString,
    pauseReasonKind: PauseReasonKind,
    pausedAt: NullableTimestamp,
    selfResume: SelfResumeView,
    senderHealth: SenderHealthView,
    metricsWindow: MetricsWindowView,
    remediation: RemediationView,
    heldSends: t.number,
  },
  "SendingStatus",
);
export type SendingStatusView = t.TypeOf<typeof SendingStatusView>;

/** POST /sending-status/resume, plus releasedSends: held sends queued for delivery again. */
export const ResumeSendingView = view(
  {
    resumed: t.boolean,
    message: t.string,
    status: SendingStatus,
    selfResume: SelfResumeView,
    metricsWindow: MetricsWindowView,
    remediation: RemediationView,
    releasedSends: t.number,
  },
  "ResumeSending",
);
export type ResumeSendingView = t.TypeOf<typeof ResumeSendingView>;

export function selfResumeView(state: SendingState): t.TypeOf<typeof SelfResumeView> {
  if (state.status === "active") return { canSelfResume: false, requiresListSanitizationConfirmation: false, reason: null };
  if (canSelfResume(state)) {
    return {
      canSelfResume: true,
      requiresListSanitizationConfirmation: true,
      reason: "Resume with listSanitizationConfirmed: true once the bounced addresses and their source are dealt with",
    };
  }
  return {
    canSelfResume: false,
    requiresListSanitizationConfirmation: false,
    reason: "Only a pause for hard bounces can be resumed from the API; the operator resumes this one",
  };
}

export const metricsWindowView = (state: SendingState): t.TypeOf<typeof MetricsWindowView> => ({
  kind: "all_time_since_reset",
  expiresAt: null,
  bounceResetAt: state.bounceResetAt?.toISOString() ?? null,
  complaintResetAt: state.complaintResetAt?.toISOString() ?? null,
});

export const senderHealthView = (bounces: BounceWindow, complaints: ComplaintWindow): t.TypeOf<typeof SenderHealthView> => ({
  recentSendLimit: RECENT_SENDS,
  bounceRateSends: bounces.sends,
  hardBounces: bounces.hardBounces,
  hardBounceRate: rate(bounces.hardBounces, bounces.sends),
  softBounces: bounces.softBounces,
  softBounceRate: rate(bounces.softBounces, bounces.sends),
  complaintRateSends: complaints.sends,
  complaints: complaints.complaints,
  complaintRate: rate(complaints.complaints, complaints.sends),
  thresholds: {
    hardBounceRate: HARD_BOUNCE_PAUSE_PERCENT,
    hardBounceMinimumSends: HARD_BOUNCE_MINIMUM_SENDS,
    complaintRate: COMPLAINT_PAUSE_PERCENT,
    complaintSuspensionRate: COMPLAINT_SUSPEND_PERCENT,
    complaintMinimumSends: COMPLAINT_MINIMUM_SENDS,
  },
});

export const sendingStatusView = (state: SendingState, bounces: BounceWindow, complaints: ComplaintWindow, heldSends: number): SendingStatusView => ({
  status: state.status,
  pauseReason: state.pauseReason,
  pauseReasonKind: state.pauseReasonKind,
  pausedAt: state.pausedAt?.toISOString() ?? null,
  selfResume: selfResumeView(state),
  senderHealth: senderHealthView(bounces, complaints),
  metricsWindow: metricsWindowView(state),
  remediation: remediationFor(state),
  heldSends,
});
