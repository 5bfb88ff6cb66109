import { deliverEmailsJob } from "../delivery/queue-email-send.js";
import type { Clock } from "../ports/clock.js";
import type { Actor, OperatorActor } from "../shared/actor.js";
import { badRequest, conflict, notFound, type DomainError } from "../shared/errors.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { fail, ok, type Result } from "../shared/result.js";
import { canSelfResume, type SendingState } from "./model.js";
import type { SendingStatusRepository } from "./ports.js";
import { remediationFor } from "./remediation.js";
import { operatorResumed, selfResumed } from "./transitions.js";
import { metricsWindowView, selfResumeView, type ResumeSendingView } from "./view.js";
import type { ResumeSendingCommand } from "./commands.js";

export const LIST_SANITIZATION_REQUIRED = "LIST_SANITIZATION_REQUIRED";
export const SELF_RESUME_NOT_ALLOWED = "SELF_RESUME_NOT_ALLOWED";

/** Why the company cannot lift this state itself; null when it can. */
function refusal(state: SendingState, confirmed: boolean): DomainError | null {
  if (!canSelfResume(state)) {
    const why = state.pauseReasonKind === "high_complaint_rate" ? "for a high spam-complaint rate" : `(${state.pauseReasonKind ?? "other"})`;
    return conflict(`Sending is ${state.status} ${why} and cannot be resumed from the API: contact the operator, who resumes it after a review`, {
      code: SELF_RESUME_NOT_ALLOWED,
      extra: { status: state.status, pauseReasonKind: state.pauseReasonKind, remediation: remediationFor(state) },
    });
  }
  if (!confirmed) {
    return badRequest(
      "Sending was paused for a high hard-bounce rate: remove the addresses that bounced and fix where they came from, then resume with listSanitizationConfirmed: true",
      { code: LIST_SANITIZATION_REQUIRED },
    );
  }
  return null;
}

/**
 * POST /sending-status/resume: lifts a hard-bounce pause once the company confirms its list is
 * clean (the bounce rate starts over) and queues every held send for delivery. Any other pause,
 * and a suspension, is the operator's to lift (`operatorExecute`, the CLI).
 */
export class ResumeSending {
  constructor(
    private readonly sendingStatus: SendingStatusRepository,
    private readonly tenancy: TenancyRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: ResumeSendingCommand): Promise<Result<ResumeSendingView>> => {
    const current = await this.sendingStatus.get(actor.companyId);
    if (current.status === "active") return ok(this.answer(false, "Sending is active: there is nothing to resume", current, 0));
    const refused = refusal(current, input.listSanitizationConfirmed);
    if (refused) return fail(refused);
    const now = this.clock.now();
    // Decided again under the lock: the pause may have turned into a complaint pause meanwhile.
    const change = await this.sendingStatus.change(
      actor.companyId,
      (latest) => (refusal(latest, input.listSanitizationConfirmed) ? null : selfResumed(latest, now)),
      now,
      deliverEmailsJob,
    );
    if (!change.changed) {
      const meanwhile = change.before.status === "active" ? null : refusal(change.before, input.listSanitizationConfirmed);
      if (meanwhile) return fail(meanwhile);
      return ok(this.answer(false, "Sending is active: there is nothing to resume", change.after, 0));
    }
    return ok(this.answer(true, resumedMessage(change.released), change.after, change.released));
  };

  /** The operator lifts any pause or suspension; both rates start over. */
  operatorExecute = async (_operator: OperatorActor, companyId: string): Promise<Result<ResumeSendingView>> => {
    if (!(await this.tenancy.findCompany(companyId))) return fail(notFound(`Company not found: ${companyId}`));
    const now = this.clock.now();
    const change = await this.sendingStatus.change(
      companyId,
      (latest) => (latest.status === "active" ? null : operatorResumed(latest, now)),
      now,
      deliverEmailsJob,
    );
    if (!change.changed) return ok(this.answer(false, "Sending is active: there is nothing to resume", change.after, 0));
    return ok(this.answer(true, resumedMessage(change.released), change.after, change.released));
  };

  private answer(resumed: boolean, message: string, state: SendingState, released: number): ResumeSendingView {
    return {
      resumed,
      message,
      status: state.status,
      selfResume: selfResumeView(state),
      metricsWindow: metricsWindowView(state),
      remediation: remediationFor(state),
      releasedSends: released,
    };
  }
}

const resumedMessage = (released: number): string =>
  `Sending resumed${released > 0 ? `: ${released} held send${released === 1 ? " is" : "s are"} queued for delivery` : ""}`;
