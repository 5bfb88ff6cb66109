import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { AUDIENCE_ENROLLMENT_NOT_FOUND, transition } from "./audience-enrollment.js";
import type { AudienceEnrollmentRepository } from "./audience-enrollment-ports.js";
import { toAudienceEnrollmentView, type AudienceEnrollmentView } from "./audience-enrollment-view.js";

export interface CancelledAudienceEnrollment {
  readonly audienceEnrollment: AudienceEnrollmentView;
  readonly message: string;
}

/**
 * POST .../audience-enrollments/{runId}/cancel, by the spec's table: queued -> cancelled at once;
 * running -> cancel requested (it stops after the batch being enrolled); completed -> 400.
 * Contacts already enrolled stay enrolled.
 */
export class CancelAudienceEnrollment {
  constructor(
    private readonly runs: AudienceEnrollmentRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, runId: string): Promise<Result<CancelledAudienceEnrollment>> => {
    // A batch may move the run between our read and our write: read again and retry.
    for (let attempt = 0; attempt < 5; attempt++) {
      const run = await this.runs.find(actor.companyId, sequenceId, runId);
      if (!run) return fail(AUDIENCE_ENROLLMENT_NOT_FOUND);
      const next = transition(run, { type: "cancel" }, this.clock.now());
      if (next._tag === "Left") return next;
      if (await this.runs.save(next.right, { status: run.status, processedCount: run.processedCount })) {
        const message =
          next.right.status === "cancelled"
            ? "Audience enrollment cancelled; contacts already enrolled stay enrolled"
            : "Cancel requested: the audience enrollment stops after the batch being enrolled; contacts already enrolled stay enrolled";
        return ok({ audienceEnrollment: toAudienceEnrollmentView(next.right), message });
      }
    }
    throw new Error(`audience enrollment ${runId} kept changing while being cancelled`);
  };
}
