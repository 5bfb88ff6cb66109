import type { Clock } from "../ports/clock.js";
import { severityOf, type SendingState } from "./model.js";
import type { SendingStatusRepository } from "./ports.js";
import { bounceVerdict, complaintVerdict } from "./thresholds.js";
import { escalate } from "./transitions.js";

/** What a delivery event says about the sender's list: a hard bounce or a spam complaint. */
export type HealthSignal = "hard_bounce" | "complaint";

/** The most serious state each signal can lead to: once there, counting again changes nothing. */
const WORST_OUTCOME: Record<HealthSignal, number> = {
  hard_bounce: severityOf({ status: "paused", pauseReasonKind: "high_hard_bounce_rate" }),
  complaint: severityOf({ status: "suspended", pauseReasonKind: "high_complaint_rate" }),
};

/**
 * After a hard bounce or a complaint is recorded: measures the rate it belongs to over the
 * company's recent sends and pauses (or suspends) sending when it crosses its threshold
 * (thresholds.ts). It only ever makes the state more serious; resuming is a person's decision.
 */
export class EvaluateSendingHealth {
  constructor(
    private readonly sendingStatus: SendingStatusRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (companyId: string, signal: HealthSignal): Promise<void> => {
    const current = await this.sendingStatus.get(companyId);
    // A bounce storm on a paused company costs one read per bounce, not one count.
    if (severityOf(current) >= WORST_OUTCOME[signal]) return;
    const verdict =
      signal === "hard_bounce"
        ? bounceVerdict(await this.sendingStatus.bounceWindow(companyId, current.bounceResetAt))
        : complaintVerdict(await this.sendingStatus.complaintWindow(companyId, current.complaintResetAt));
    if (!verdict) return;
    const now = this.clock.now();
    // A resume meanwhile started the rates over: this count is from before it and no longer says anything.
    const sameWindow = (latest: SendingState) =>
      latest.bounceResetAt?.getTime() === current.bounceResetAt?.getTime() && latest.complaintResetAt?.getTime() === current.complaintResetAt?.getTime();
    await this.sendingStatus.change(companyId, (latest) => (sameWindow(latest) ? escalate(latest, verdict, now) : null), now);
  };
}
