import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { invalidState, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { advanceTestRunJob } from "./advance-test-run.js";
import { EnrollContact } from "./enroll-contact.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { DEFAULT_SPEED_MULTIPLIER, TEST_RUN_NOT_FOUND, type TestRun } from "./test-run.js";
import type { StartTestRunCommand } from "./test-run-commands.js";
import type { TestRunRepository } from "./test-run-ports.js";
import { toTestRunView, type TestRunView } from "./test-run-view.js";

/**
 * POST /sequences/{id}/test-runs: queues a test run of the sequence for one contact (any status:
 * a test sends only test emails), answering with its job's ID; GET .../test-runs/{runId} shows
 * its progress and steps log. A draft works as well as a live sequence.
 */
export class StartTestRun {
  constructor(
    private readonly runs: TestRunRepository,
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, command: StartTestRunCommand): Promise<Result<TestRunView>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    if (sequence.status === "archived") return fail(invalidState("The sequence is archived: unarchive it to test it"));
    const contact = await this.subscribers.findById(actor.companyId, command.subscriberId);
    if (!contact) return fail(notFound("Subscriber not found"));
    const now = this.clock.now();
    const run: TestRun = {
      id: this.ids.next("str"),
      companyId: actor.companyId,
      sequenceId,
      subscriberId: contact.id,
      initiatedByUserId: actor.userId,
      status: "queued",
      recipientEmails: command.recipientEmails ? [...new Set(command.recipientEmails)] : [contact.email],
      speedMultiplier: command.speedMultiplier ?? DEFAULT_SPEED_MULTIPLIER,
      customVariables: command.customVariables ?? {},
      steps: [],
      currentNodeId: EnrollContact.firstNodeId(sequence),
      resumeAt: null,
      errorMessage: null,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
    };
    await this.runs.insert(run);
    const jobId = await this.jobs.enqueue(advanceTestRunJob(run));
    return ok(toTestRunView(run, jobId));
  };

  get = async (actor: Actor, sequenceId: string, runId: string): Promise<Result<TestRunView>> => {
    const run = await this.runs.find(actor.companyId, sequenceId, runId);
    return run ? ok(toTestRunView(run)) : fail(TEST_RUN_NOT_FOUND);
  };
}
