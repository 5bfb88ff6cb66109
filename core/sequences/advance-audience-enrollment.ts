import * as t from "io-ts";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { Job, JobQueue, JobRequest } from "../ports/job-queue.js";
import { must } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { isFinished, transition, type AudienceEnrollment, type AudienceEnrollmentEvent } from "./audience-enrollment.js";
import type { AudienceEnrollmentRepository } from "./audience-enrollment-ports.js";
import { selectionOf, type AudienceLookups } from "./audience-selection.js";
import type { EnrollContact } from "./enroll-contact.js";
import type { SequenceRepository } from "./ports.js";
import { targetNodeProblem } from "./target-node.js";

/** Contacts enrolled per batch (one job run). */
export const AUDIENCE_BATCH = 100;

/** The `error` of a run whose batches kept failing. */
export const AUDIENCE_GAVE_UP = "The audience enrollment stopped after repeated errors; contacts enrolled before it stopped stay enrolled";

export const AdvanceAudienceEnrollmentJob = defineJob({
  type: "sequences.audience_enrollment",
  company: "required",
  payload: t.type({ runId: t.string, sequenceId: t.string }),
});

export const advanceAudienceEnrollmentJob = (run: Pick<AudienceEnrollment, "id" | "companyId" | "sequenceId">): JobRequest =>
  AdvanceAudienceEnrollmentJob.request({ runId: run.id, sequenceId: run.sequenceId }, { companyId: run.companyId });

/**
 * One batch of an audience enrollment per job run: start it if queued, stop it if a cancel was
 * requested, else enroll the next AUDIENCE_BATCH contacts of the audience (in ID order, after
 * the cursor) and save the counts with the new cursor; then queue the next batch. The save is a
 * compare-and-set on the run's progress, so a duplicate job never counts a batch twice. A batch
 * interrupted by a crash runs again: its contacts already on their way through the sequence are
 * not enrolled twice (they count as skipped then).
 */
export class AdvanceAudienceEnrollment {
  constructor(
    private readonly runs: AudienceEnrollmentRepository,
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly lookups: AudienceLookups,
    private readonly enroll: EnrollContact,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  runJob = ({ companyId, payload }: WorkOf<typeof AdvanceAudienceEnrollmentJob>, job: Job): Promise<void> =>
    onLastAttempt(
      job,
      () => this.execute(companyId, payload.sequenceId, payload.runId),
      async () => {
        const run = await this.runs.find(companyId, payload.sequenceId, payload.runId);
        if (run && !isFinished(run.status)) await this.move(run, { type: "fail", error: AUDIENCE_GAVE_UP });
      },
    );

  /** Runs one batch; resolves to the run after it (null when it does not exist). */
  execute = async (companyId: string, sequenceId: string, runId: string): Promise<AudienceEnrollment | null> => {
    const read = await this.runs.find(companyId, sequenceId, runId);
    if (!read || isFinished(read.status)) return read;
    let run = read;
    if (run.status === "queued") {
      const started = await this.move(run, { type: "start" });
      if (!started) return this.runs.find(companyId, sequenceId, runId);
      run = started;
    }
    if (run.cancelRequestedAt) return this.move(run, { type: "stop" });

    const now = this.clock.now();
    const sequence = await this.sequences.find(companyId, sequenceId);
    if (!sequence) return null; // deleted: its runs went with it
    if (sequence.status === "archived")
      return this.move(run, { type: "fail", error: "The sequence was archived: unarchive it and start a new audience enrollment" });
    const targetProblem = run.targetNodeId === null ? null : targetNodeProblem(sequence, run.targetNodeId);
    if (targetProblem) return this.move(run, { type: "fail", error: `The step contacts entered at was removed from the sequence (${targetProblem.message})` });
    const selection = await selectionOf(this.lookups, companyId, run.audience, run.createdAt);
    if (selection._tag === "Left") return this.move(run, { type: "fail", error: `The audience no longer exists: ${selection.left.message}` });

    const ids = await this.runs.page(selection.right, run.cursor, AUDIENCE_BATCH);
    if (ids.length === 0) return this.move(run, { type: "exhausted" });
    let enrolled = 0;
    for (const id of ids) {
      const contact = await this.subscribers.findById(companyId, id);
      const outcome = contact
        ? await this.enroll.execute(sequence, contact, { context: {}, source: "api", at: now, targetNodeId: run.targetNodeId ?? undefined })
        : "deleted";
      if (typeof outcome !== "string") enrolled += 1;
    }
    const after = await this.move(run, { type: "batch", enrolled, skipped: ids.length - enrolled, cursor: ids[ids.length - 1]! });
    if (!after) return this.runs.find(companyId, sequenceId, runId);
    // A short page was the audience's last: no need for a job that only finds nothing.
    const done = ids.length < AUDIENCE_BATCH ? await this.move(after, { type: "exhausted" }) : after;
    if (done && !isFinished(done.status)) await this.jobs.enqueue(advanceAudienceEnrollmentJob(done));
    return done;
  };

  /** Applies the event and saves it, unless the run moved since it was read (then null). */
  private async move(run: AudienceEnrollment, event: AudienceEnrollmentEvent): Promise<AudienceEnrollment | null> {
    const next = must(transition(run, event, this.clock.now()));
    return (await this.runs.save(next, { status: run.status, processedCount: run.processedCount })) ? next : null;
  }
}
