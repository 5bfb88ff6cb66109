import type { ProfileRepository } from "../company/ports.js";
import type { ResolveSender } from "../company/resolve-sender.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { CHANGED_MEANWHILE } from "./archive-sequence.js";
import { advanceEnrollmentsJob } from "./engine-jobs.js";
import { validateGraph } from "./graph.js";
import { SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { runProblems } from "./runnable.js";
import { requestedIdentity } from "./sequence-identity.js";
import { statusFields, type SequenceStatusView } from "./view.js";

export type SequenceStatusAnswer = SequenceStatusView & { readonly sequenceId: string };
export type EnrollmentPauseAnswer = Omit<SequenceStatusAnswer, "status">;

const ARCHIVED = invalidState("The sequence is archived: unarchive it first");

/**
 * POST /sequences/{id}/enable, /disable, /pause-enrollments and /resume-enrollments. Enabling
 * checks that the engine can run the whole sequence (graph, trigger, node types, a sender the
 * company can send from) and answers a 400 naming what is missing otherwise. Disabling freezes
 * current enrollments where they are; pausing enrollments stops new entries only. Each is
 * idempotent: asking for the state a sequence is in changes nothing.
 */
export class SetSequenceStatus {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly resolveSender: ResolveSender,
    private readonly profiles: ProfileRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  enable = async (actor: Actor, sequenceId: string): Promise<Result<SequenceStatusAnswer>> => {
    const answer = await this.change(actor, sequenceId, async (sequence) => {
      if (sequence.status === "archived") return fail(ARCHIVED);
      if (sequence.status === "active") return ok(sequence);
      const problems = await this.problems(sequence);
      if (problems.length > 0) return fail(badRequest(`The sequence cannot be enabled: ${problems.join("; ")}`, { extra: { details: problems } }));
      return ok({ ...sequence, status: "active" });
    });
    // Enrollments frozen while it was disabled (or enrolled into the draft) go on at once.
    if (answer._tag === "Right") await this.jobs.enqueue(advanceEnrollmentsJob(actor.companyId));
    return answer;
  };

  disable = (actor: Actor, sequenceId: string): Promise<Result<SequenceStatusAnswer>> =>
    this.change(actor, sequenceId, async (sequence) => {
      if (sequence.status === "archived") return fail(ARCHIVED);
      return ok(sequence.status === "active" ? { ...sequence, status: "paused" } : sequence);
    });

  pauseEnrollments = (actor: Actor, sequenceId: string) => this.setEnrollmentPaused(actor, sequenceId, true);
  resumeEnrollments = (actor: Actor, sequenceId: string) => this.setEnrollmentPaused(actor, sequenceId, false);

  private async setEnrollmentPaused(actor: Actor, sequenceId: string, paused: boolean): Promise<Result<EnrollmentPauseAnswer>> {
    const answer = await this.change(actor, sequenceId, async (sequence) =>
      sequence.status === "archived" ? fail(ARCHIVED) : ok({ ...sequence, enrollmentPaused: paused }),
    );
    if (answer._tag === "Left") return answer;
    const { status: _status, ...fields } = answer.right;
    return ok(fields);
  }

  private async problems(sequence: Sequence): Promise<string[]> {
    const graph = validateGraph(sequence.graph);
    if (graph._tag === "Left") return [graph.left.message];
    const problems = runProblems(sequence);
    if (sequence.graph.nodes.some((node) => node.nodeType === "action_email")) {
      const sender = await this.resolveSender.execute(sequence.companyId, (await requestedIdentity(this.profiles, sequence)).from);
      if (sender._tag === "Left") problems.push(`its emails have no sender: ${sender.left.message}`);
    }
    return problems;
  }

  private async change(actor: Actor, sequenceId: string, next: (sequence: Sequence) => Promise<Result<Sequence>>): Promise<Result<SequenceStatusAnswer>> {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const changed = await next(sequence);
    if (changed._tag === "Left") return changed;
    let saved = changed.right;
    if (saved.status !== sequence.status || saved.enrollmentPaused !== sequence.enrollmentPaused) {
      saved = { ...saved, updatedAt: this.clock.now() };
      if (!(await this.sequences.update(saved, sequence.graphRevision))) return fail(CHANGED_MEANWHILE);
    }
    return ok({ sequenceId: saved.id, ...statusFields(saved) });
  }
}
