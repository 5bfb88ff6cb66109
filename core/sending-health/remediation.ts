import type { PauseReasonKind, SendingState } from "./model.js";

/** What the company should do to send again. */
export interface Remediation {
  readonly summary: string;
  readonly steps: readonly string[];
}

const BY_KIND: Record<PauseReasonKind, Remediation> = {
  high_hard_bounce_rate: {
    summary: "Too many messages went to addresses that do not exist. Clean the list, then resume sending yourself.",
    steps: [
      "Find where the bounced addresses came from (an old import, a bought list, a form without confirmation) and stop adding such addresses.",
      "The addresses that hard-bounced are suppressed already; remove or verify the rest of that source before mailing it again.",
      "Call POST /sending-status/resume with listSanitizationConfirmed: true. The bounce rate starts over from that moment.",
    ],
  },
  high_soft_bounce_rate: {
    summary: "Too many messages were refused for now by the receiving servers. Contact the operator to resume sending.",
    steps: ["Check the bounce sub-types in the email sends for mailbox-full or throttling answers.", "Send less at once, then ask the operator to resume."],
  },
  high_complaint_rate: {
    summary: "Too many recipients reported your mail as spam. Sending cannot be resumed from the API: the operator reviews the account first.",
    steps: [
      "Mail only people who asked for it (confirmed opt-in) and who engaged recently; drop old or unengaged segments.",
      "Make the sender recognisable and the unsubscribe link easy to find.",
      "Contact the operator with what changed; they resume sending after the review, and the complaint rate starts over.",
    ],
  },
  phishing_guard: {
    summary: "Sending was stopped because the content looked like phishing. Contact the operator.",
    steps: ["Contact the operator to review the content."],
  },
  manual: {
    summary: "The operator paused sending. Contact them to resume.",
    steps: ["Contact the operator."],
  },
  other: {
    summary: "Sending was stopped. Contact the operator to resume.",
    steps: ["Contact the operator."],
  },
};

/** What to do about the current state; null while sending is active. */
export function remediationFor(state: Pick<SendingState, "status" | "pauseReasonKind">): Remediation | null {
  if (state.status === "active") return null;
  const base = BY_KIND[state.pauseReasonKind ?? "other"];
  if (state.status !== "suspended") return base;
  return { ...base, summary: `Every send, transactional mail included, is held until the operator resumes sending. ${base.summary}` };
}
