import type { WorkOf } from "../jobs/job-definition.js";
import { defineJob } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Job, JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import * as t from "io-ts";
import { advanceEnrollmentsJob } from "./engine-jobs.js";
import type { RealignSendingWindowCommand } from "./enrollment-commands.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { NO_COUNTS, planRun, tally, type Realignment, type RealignmentCounts, type RealignmentStatus } from "./realignment.js";
import type { RealignmentRepository } from "./realignment-ports.js";

/** Waiting runs read per page. */
export const REALIGN_PAGE = 500;
/** Changes shown by a dry run, at most. */
const CHANGES_SHOWN = 50;

export const REALIGNMENT_NOT_FOUND = notFound("Realignment job not found");

/** Applies one queued realignment, page by page (a retry goes on from its cursor). */
export const RealignSendingWindowJob = defineJob({
  type: "sequences.realign_sending_window",
  company: "required",
  payload: t.type({ sequenceId: t.string, realignmentId: t.string }),
  maxAttempts: 10,
});

export interface RealignChange {
  readonly enrollmentId: string;
  readonly subscriberId: string;
  readonly email: string | null;
  readonly nodeId: string;
  readonly fromWaitUntil: string;
  readonly toWaitUntil: string;
}

export type RealignAnswer =
  | (RealignmentCounts & {
      readonly sequenceId: string;
      readonly dryRun: true;
      readonly changes: readonly RealignChange[];
      readonly hasMore: boolean;
      readonly nextCursor: string | null;
    })
  | { readonly sequenceId: string; readonly dryRun: false; readonly status: "queued"; readonly jobId: string };

export interface RealignmentJobView {
  readonly jobId: string;
  readonly sequenceId: string;
  readonly status: RealignmentStatus;
  readonly result: RealignmentCounts;
  readonly error: string | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
}

/**
 * POST /sequences/{id}/enrollments/realign-sending-window: a dry run (the default) reads one page
 * of the sequence's waiting runs from `cursor` and says what realigning would change; with
 * `dryRun: false` the whole realignment is queued as a background job whose progress and counts
 * `GET .../realign-sending-window/jobs/{jobId}` shows. `nodeIds` and `subscriberIds` narrow it.
 */
export class RealignSendingWindow {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly enrollments: EnrollmentRepository,
    private readonly realignments: RealignmentRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, input: RealignSendingWindowCommand): Promise<Result<RealignAnswer>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const filter = { nodeIds: input.nodeIds ?? null, subscriberIds: input.subscriberIds ?? null };
    const now = this.clock.now();
    if (input.dryRun ?? true) {
      const page = await this.enrollments.waitingPage(actor.companyId, sequenceId, filter, input.cursor ?? null, REALIGN_PAGE + 1);
      const runs = page.slice(0, REALIGN_PAGE);
      let counts = NO_COUNTS;
      const changes: RealignChange[] = [];
      for (const run of runs) {
        const plan = planRun(sequence, run, now);
        counts = tally(counts, plan);
        if (plan.kind === "realign" && changes.length < CHANGES_SHOWN)
          changes.push({
            enrollmentId: run.id,
            subscriberId: run.subscriberId,
            email: run.email,
            nodeId: run.currentNodeId,
            fromWaitUntil: plan.from.toISOString(),
            toWaitUntil: plan.to.toISOString(),
          });
      }
      const hasMore = page.length > REALIGN_PAGE;
      return ok({ sequenceId, dryRun: true, ...counts, changes, hasMore, nextCursor: hasMore ? runs.at(-1)!.id : null });
    }
    const realignment: Realignment = {
      id: this.ids.next("rlg"),
      companyId: actor.companyId,
      sequenceId,
      status: "queued",
      ...filter,
      cursor: input.cursor ?? null,
      result: NO_COUNTS,
      error: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    await this.realignments.insert(realignment, RealignSendingWindowJob.request({ sequenceId, realignmentId: realignment.id }, { companyId: actor.companyId }));
    return ok({ sequenceId, dryRun: false, status: "queued", jobId: realignment.id });
  };

  get = async (actor: Actor, sequenceId: string, jobId: string): Promise<Result<RealignmentJobView>> => {
    const realignment = await this.realignments.find(actor.companyId, sequenceId, jobId);
    if (!realignment) return fail(REALIGNMENT_NOT_FOUND);
    return ok({
      jobId: realignment.id,
      sequenceId,
      status: realignment.status,
      result: realignment.result,
      error: realignment.error,
      createdAt: realignment.createdAt.toISOString(),
      finishedAt: realignment.finishedAt?.toISOString() ?? null,
    });
  };

  runJob = async ({ companyId, payload }: WorkOf<typeof RealignSendingWindowJob>, job: Job): Promise<void> => {
    const found = await this.realignments.find(companyId, payload.sequenceId, payload.realignmentId);
    if (!found || found.status === "completed" || found.status === "failed") return;
    await onLastAttempt(
      job,
      () => this.apply(found),
      async (error) => {
        const now = this.clock.now();
        const current = (await this.realignments.find(companyId, found.sequenceId, found.id)) ?? found;
        await this.realignments.save({
          ...current,
          status: "failed",
          error: error instanceof Error ? error.message : String(error),
          updatedAt: now,
          finishedAt: now,
        });
      },
    );
  };

  /** Page by page from the cursor; each page's counts and cursor are saved once its runs are moved. */
  private async apply(start: Realignment): Promise<void> {
    let realignment: Realignment = { ...start, status: "running", updatedAt: this.clock.now() };
    const sequence = await this.sequences.find(realignment.companyId, realignment.sequenceId);
    if (!sequence) {
      await this.realignments.save({ ...realignment, status: "failed", error: "The sequence was deleted", finishedAt: this.clock.now() });
      return;
    }
    for (;;) {
      const filter = { nodeIds: realignment.nodeIds, subscriberIds: realignment.subscriberIds };
      const runs = await this.enrollments.waitingPage(realignment.companyId, realignment.sequenceId, filter, realignment.cursor, REALIGN_PAGE);
      const now = this.clock.now();
      const result = await this.realignPage(sequence, runs, realignment.result, now);
      const done = runs.length < REALIGN_PAGE;
      realignment = {
        ...realignment,
        cursor: runs.at(-1)?.id ?? realignment.cursor,
        result,
        status: done ? "completed" : "running",
        updatedAt: now,
        finishedAt: done ? now : null,
      };
      await this.realignments.save(realignment);
      if (done) return;
    }
  }

  private async realignPage(sequence: Sequence, runs: Awaited<ReturnType<EnrollmentRepository["waitingPage"]>>, before: RealignmentCounts, now: Date) {
    let counts = before;
    let dueNow = 0;
    for (const run of runs) {
      let plan = planRun(sequence, run, now);
      // A run that moved on meanwhile keeps what it has: counted as aligned.
      if (plan.kind === "realign" && !(await this.enrollments.reschedule(run.companyId, run.id, plan.from, plan.to, now)))
        plan = { kind: "unchanged", reason: "already_aligned" };
      counts = tally(counts, plan);
      if (plan.kind === "realign" && plan.to.getTime() <= now.getTime()) dueNow += 1;
    }
    if (dueNow > 0) {
      try {
        await this.jobs.enqueue(advanceEnrollmentsJob(sequence.companyId));
      } catch {
        counts = { ...counts, requeueFailedCount: counts.requeueFailedCount + dueNow };
      }
    }
    return counts;
  }
}
