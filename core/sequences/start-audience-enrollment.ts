import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { advanceAudienceEnrollmentJob } from "./advance-audience-enrollment.js";
import type { AudienceEnrollment } from "./audience-enrollment.js";
import type { StartAudienceEnrollmentCommand } from "./audience-enrollment-commands.js";
import type { AudienceEnrollmentRepository } from "./audience-enrollment-ports.js";
import { selectionOf, storedAudience, type AudienceLookups } from "./audience-selection.js";
import { toAudienceEnrollmentView, type AudienceEnrollmentView } from "./audience-enrollment-view.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { targetNodeProblem } from "./target-node.js";

/**
 * POST /sequences/{id}/audience-enrollments: counts the audience (estimatedCount) and queues
 * the run (202); its job enrolls the audience batch by batch. Contacts enter as through
 * POST .../enroll: only active ones, confirmed under double opt-in, not already on their way.
 */
export class StartAudienceEnrollment {
  constructor(
    private readonly runs: AudienceEnrollmentRepository,
    private readonly sequences: SequenceRepository,
    private readonly lookups: AudienceLookups,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, command: StartAudienceEnrollmentCommand): Promise<Result<AudienceEnrollmentView>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    if (sequence.status === "archived") return fail(invalidState("The sequence is archived: unarchive it before enrolling contacts"));
    if (command.targetNodeId !== undefined) {
      const problem = targetNodeProblem(sequence, command.targetNodeId);
      if (problem) return fail(problem);
    }
    const now = this.clock.now();
    const audience = storedAudience(command.audience);
    const selection = await selectionOf(this.lookups, actor.companyId, audience, now);
    if (selection._tag === "Left") return selection;

    const run: AudienceEnrollment = {
      id: this.ids.next("aen"),
      companyId: actor.companyId,
      sequenceId,
      status: "queued",
      audience,
      targetNodeId: command.targetNodeId ?? null,
      estimatedCount: await this.runs.count(selection.right),
      processedCount: 0,
      enrolledCount: 0,
      skippedCount: 0,
      source: "api",
      error: null,
      cursor: null,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      completedAt: null,
      cancelRequestedAt: null,
    };
    await this.runs.insert(run);
    await this.jobs.enqueue(advanceAudienceEnrollmentJob(run));
    return ok(toAudienceEnrollmentView(run));
  };
}
