import type { Clock } from "../ports/clock.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { TrackedSend } from "../tracking/model.js";
import type { EngagementRepository } from "../tracking/ports.js";
import type { TrackingTokens } from "../tracking/tracking-tokens.js";
import { resolveUnsubscribeToken } from "../tracking/unsubscribe-page.js";
import { RUNNING_STATUSES } from "./enrollment.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { keepsEntryKey } from "./entry-key.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";

/** The `failedReason` of an enrollment its contact stopped from an email. */
export const LEFT_BY_CONTACT = "the contact stopped this sequence from an email";

/** What the page shows after the contact left the sequence. */
export interface LeftSequence {
  readonly companyName: string;
  readonly email: string;
  readonly sequenceName: string;
}

export const sequenceNotLeavable = () => notFound("This email's sequence cannot be stopped on its own");

/**
 * `userCancellable`: the unsubscribe page of an email from such a sequence also offers to stop
 * only that sequence. Its contact's running enrollment there is cancelled (with the reason), and
 * nothing else changes: the contact stays subscribed, its other sequences go on.
 */
export class LeaveSequenceFromEmail {
  constructor(
    private readonly tokens: TrackingTokens,
    private readonly engagements: EngagementRepository,
    private readonly tenancy: TenancyRepository,
    private readonly sequences: SequenceRepository,
    private readonly enrollments: EnrollmentRepository,
    private readonly clock: Clock,
  ) {}

  /** The name of the sequence the link's email came from, when its contact may stop it alone now; else null. */
  offer = async (token: string): Promise<string | null> => {
    const resolved = await resolveUnsubscribeToken(this.tokens, this.engagements, this.tenancy, token, this.clock.now());
    if (resolved._tag === "Left") return null;
    const sequence = await this.leavable(resolved.right.send);
    return sequence?.name ?? null;
  };

  execute = async (token: string): Promise<Result<LeftSequence>> => {
    const now = this.clock.now();
    const resolved = await resolveUnsubscribeToken(this.tokens, this.engagements, this.tenancy, token, now);
    if (resolved._tag === "Left") return resolved;
    const { send, companyName } = resolved.right;
    const sequence = await this.sequenceOf(send);
    if (!sequence || !send.subscriberId) return fail(sequenceNotLeavable());
    // Repeating the request (or a contact no longer running it) changes nothing and shows the same page.
    await this.enrollments.cancelRunning(send.companyId, sequence.id, [send.subscriberId], {
      reason: LEFT_BY_CONTACT,
      keepEntryKey: keepsEntryKey(sequence),
      at: now,
    });
    return ok({ companyName, email: send.recipientEmail, sequenceName: sequence.name });
  };

  /** The send's sequence, when it lets its contacts stop it. */
  private async sequenceOf(send: TrackedSend): Promise<Sequence | null> {
    if (!send.automationId) return null;
    const sequence = await this.sequences.find(send.companyId, send.automationId);
    return sequence?.userCancellable ? sequence : null;
  }

  /** The send's sequence, when its contact may stop it and is still running it. */
  private async leavable(send: TrackedSend): Promise<Sequence | null> {
    const sequence = await this.sequenceOf(send);
    if (!sequence || !send.subscriberId) return null;
    const running = await this.enrollments.list(send.companyId, sequence.id, {
      statuses: RUNNING_STATUSES,
      subscriberIds: [send.subscriberId],
      sort: "enrolled_at_desc",
      limit: 1,
      offset: 0,
    });
    return running.total > 0 ? sequence : null;
  }
}
