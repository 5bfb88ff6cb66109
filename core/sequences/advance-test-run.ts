import * as t from "io-ts";
import type { EmailSendRepository } from "../delivery/ports.js";
import { contactVariables } from "../emails/merge-variables.js";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { Job, JobQueue, JobRequest } from "../ports/job-queue.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { ConditionScope, ContactConditions } from "./contact-conditions.js";
import { ACTION_TEXT, branchWay, nextNode } from "./graph-walk.js";
import { COMPLETION_NODE, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { delayMs } from "./run-step.js";
import type { SendSequenceTestEmails } from "./send-sequence-test-emails.js";
import { isOver, type TestRun, type TestRunStep } from "./test-run.js";
import type { TestRunRepository } from "./test-run-ports.js";

/** Steps one run of the job takes at most before it hands over to the next (graphs loop only through delays). */
const MAX_STEPS_PER_JOB = 200;

/** Entries a steps log holds at most: a sequence that loops through its delays ends its test run there. */
export const MAX_TEST_RUN_STEPS = 500;

/** The `errorMessage` of a run whose job kept failing. */
export const TEST_RUN_GAVE_UP = "The test run stopped after repeated errors";

export const AdvanceTestRunJob = defineJob({
  type: "sequences.test_run",
  company: "required",
  payload: t.type({ runId: t.string, sequenceId: t.string }),
});

export const advanceTestRunJob = (run: Pick<TestRun, "id" | "companyId" | "sequenceId">, runAt?: Date): JobRequest =>
  AdvanceTestRunJob.request({ runId: run.id, sequenceId: run.sequenceId }, { companyId: run.companyId, ...(runAt ? { runAt } : {}) });

/** What one node did: the log entry, and where the run goes (a node ID, `wait` until a time, or the end). */
type Outcome =
  | { readonly step: TestRunStep; readonly next: { readonly nodeId: string } }
  | { readonly step: TestRunStep; readonly wait: Date }
  | { readonly step: TestRunStep; readonly end: "completed" | "failed"; readonly error?: string };

/**
 * Moves a test run through the sequence: each job run takes steps until a delay (then the job
 * is queued again for the compressed end of the delay) or the end. Each step is saved with its
 * log entry (a compare-and-set on the log's length), and its test sends are named after the run
 * and the step, so a job run again after a crash sends nothing twice. The contact's data is
 * read, never changed.
 */
export class AdvanceTestRun {
  constructor(
    private readonly runs: TestRunRepository,
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly conditions: ContactConditions,
    private readonly sends: EmailSendRepository,
    private readonly tests: SendSequenceTestEmails,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  runJob = ({ companyId, payload }: WorkOf<typeof AdvanceTestRunJob>, job: Job): Promise<void> =>
    onLastAttempt(
      job,
      () => this.execute(companyId, payload.sequenceId, payload.runId),
      async () => {
        const run = await this.runs.find(companyId, payload.sequenceId, payload.runId);
        if (run && !isOver(run.status)) await this.runs.save(this.ended(run, "failed", TEST_RUN_GAVE_UP), run.steps.length);
      },
    );

  execute = async (companyId: string, sequenceId: string, runId: string): Promise<TestRun | null> => {
    let run = await this.runs.find(companyId, sequenceId, runId);
    if (!run || isOver(run.status)) return run;
    const now = this.clock.now();
    if (run.resumeAt && run.resumeAt > now) return run; // an early duplicate: the job queued for the wait's end carries on
    if (run.status === "queued") run = { ...run, status: "running", startedAt: now, updatedAt: now };

    const sequence = await this.sequences.find(companyId, sequenceId);
    if (!sequence) return null; // deleted: its runs went with it
    const contact = run.subscriberId ? await this.subscribers.findById(companyId, run.subscriberId) : null;
    if (!contact) return this.save(run, this.ended(run, "failed", "The test contact no longer exists"));

    for (let steps = 0; steps < MAX_STEPS_PER_JOB; steps++) {
      if (run.steps.length >= MAX_TEST_RUN_STEPS)
        return this.save(run, this.ended(run, "failed", `The test run stopped after ${MAX_TEST_RUN_STEPS} steps: the sequence loops`));
      const before = run;
      const outcome = await this.runNode(sequence, run, contact);
      const at = this.clock.now();
      const logged = { ...run, steps: [...run.steps, outcome.step], updatedAt: at };
      if ("end" in outcome) return this.save(before, this.ended(logged, outcome.end, outcome.error ?? null));
      if ("wait" in outcome) {
        const waiting = await this.save(before, { ...logged, resumeAt: outcome.wait });
        if (waiting) await this.jobs.enqueue(advanceTestRunJob(waiting, outcome.wait));
        return waiting;
      }
      const moved = await this.save(before, { ...logged, currentNodeId: outcome.next.nodeId, resumeAt: null });
      if (!moved) return null;
      run = moved;
    }
    await this.jobs.enqueue(advanceTestRunJob(run));
    return run;
  };

  private async save(before: TestRun, after: TestRun): Promise<TestRun | null> {
    return (await this.runs.save(after, before.steps.length)) ? after : null;
  }

  private ended(run: TestRun, status: "completed" | "failed", error: string | null): TestRun {
    const now = this.clock.now();
    return { ...run, status, errorMessage: error, resumeAt: null, finishedAt: now, updatedAt: now };
  }

  private async runNode(sequence: Sequence, run: TestRun, contact: TaggedSubscriber): Promise<Outcome> {
    const now = this.clock.now();
    const node = sequence.graph.nodes.find((candidate) => candidate.id === run.currentNodeId);
    // Activity conditions look at this sequence since the run started (its test sends are not real sends).
    const scope: ConditionScope = { sequenceId: sequence.id, since: run.startedAt ?? run.createdAt };
    const entry = (
      status: string,
      message: string,
      action: Record<string, unknown> | null = null,
      timing: Partial<TestRunStep["timing"]> = {},
    ): TestRunStep => ({
      nodeId: run.currentNodeId,
      nodeType: node?.nodeType ?? "missing",
      status,
      message,
      timing: { at: now.toISOString(), ...timing },
      action,
    });
    if (!node)
      return {
        step: entry("failed", "This step was deleted from the sequence"),
        end: "failed",
        error: `step ${run.currentNodeId} was deleted from the sequence`,
      };
    const go = (step: TestRunStep, way?: string): Outcome => {
      const target = nextNode(sequence, node, way);
      if (!target) return { step, end: "failed", error: `no way out of node ${node.id}${way ? ` by '${way}'` : ""}` };
      if (target.nodeType === COMPLETION_NODE) return { step, end: "completed" };
      return { step, next: { nodeId: target.id } };
    };

    const config = node.config;
    switch (node.nodeType) {
      case "trigger":
        return go(entry("started", "The test contact entered the sequence"));
      case COMPLETION_NODE:
        return { step: entry("completed", "The sequence ended"), end: "completed" };
      case "action_email": {
        const sendIds: string[] = [];
        // The caller's customVariables win over the contact's values; customVariables.event stands in for the trigger event.
        const variables = { ...contactVariables(contact), ...run.customVariables, event: { ...((run.customVariables.event as object | undefined) ?? {}) } };
        for (const [index, recipient] of run.recipientEmails.entries()) {
          const id = `send_t${run.id.slice(run.id.indexOf("_") + 1)}_${run.steps.length + 1}_${index}`;
          if (!(await this.sends.get(run.companyId, id))) {
            const sent = await this.tests.sendTest(sequence, node, recipient, variables, id);
            if (sent._tag === "Left") return { step: entry("failed", sent.left.message), end: "failed", error: sent.left.message };
          }
          sendIds.push(id);
        }
        return go(
          entry("sent", `Test email '${String(config.subject)}' sent to ${run.recipientEmails.join(", ")}`, {
            subject: String(config.subject),
            recipientEmails: run.recipientEmails,
            emailSendIds: sendIds,
          }),
        );
      }
      case "logic_delay": {
        if (run.resumeAt) return go(entry("waited", "The wait is over"));
        const full = delayMs(config);
        const compressed = Math.ceil(full / run.speedMultiplier);
        const resumesAt = new Date(now.getTime() + compressed);
        return {
          step: entry("waiting", `Waits ${Math.round(full / 1000)} s, ${Math.round(compressed / 100) / 10} s at ${run.speedMultiplier}x`, null, {
            delayMs: full,
            compressedDelayMs: compressed,
            resumesAt: resumesAt.toISOString(),
          }),
          wait: resumesAt,
        };
      }
      case "logic_condition": {
        const yes = await this.conditions.meets(contact, config, scope);
        return go(
          entry(yes ? "yes" : "no", `The condition is ${yes ? "met" : "not met"}`, { conditionType: config.conditionType ?? null }),
          yes ? "yes" : "no",
        );
      }
      case "logic_branch": {
        const way = await branchWay(node, run.id, (condition) => this.conditions.meets(contact, condition, scope));
        return go(entry("branched", `Took path ${way}`, { path: way }), way);
      }
      default: {
        const describe = ACTION_TEXT[node.nodeType];
        if (describe) return go(entry("skipped", `Not applied in a test run: ${describe(config)}`, { ...config }));
        return go(entry("skipped", `Not simulated in a test run: ${node.nodeType}`));
      }
    }
  }
}
