import type { Job } from "../ports/job-queue.js";

/**
 * The one policy for a run's last attempt. A step that throws is retried by the queue (with
 * back-off) while attempts remain. On the job's last attempt, `giveUp` settles the run with the
 * reason users see (most runs fail; an import counts the chunk as failed and goes on), and the
 * error still ends the job: it goes dead with the error as its lastError, for the operator,
 * while the run holds the outcome for the user. A run's own failures that no retry can mend
 * (refused credentials, a bucket that refuses writes) are settled by its step, not here.
 */
export async function onLastAttempt(
  job: Pick<Job, "attempts" | "maxAttempts">,
  step: () => Promise<unknown>,
  giveUp: (error: unknown) => Promise<void>,
): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (isLastAttempt(job)) await giveUp(error);
    throw error;
  }
}

export const isLastAttempt = (job: Pick<Job, "attempts" | "maxAttempts">): boolean => job.attempts >= job.maxAttempts;
