import { notFound } from "../shared/errors.js";

/**
 * Test runs (spec resource "Sequence test run", decisions.md): one contact taken through the
 * sequence at compressed speed, without touching its data: delays last `1 / speedMultiplier`
 * of their time, emails go as test sends to `recipientEmails` (else the contact), other actions
 * are logged and not applied, conditions read the contact as it is. `queued` until its job
 * starts it, `running` through its steps and waits, then `completed` or `failed`.
 */
export const TEST_RUN_STATUSES = ["queued", "running", "completed", "failed"] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];

export const MIN_SPEED_MULTIPLIER = 60;
export const MAX_SPEED_MULTIPLIER = 10_000;
/** When not given: a day's delay takes under a minute. */
export const DEFAULT_SPEED_MULTIPLIER = 3_600;

/** One entry of the steps log: what a node did in the run. */
export interface TestRunStep {
  readonly nodeId: string;
  readonly nodeType: string;
  /** `sent`, `waited`, `yes`, `no`, `branched`, `skipped` (an action not applied in a test), `completed`, `failed`. */
  readonly status: string;
  readonly message: string;
  readonly timing: { readonly at: string; readonly delayMs?: number; readonly compressedDelayMs?: number; readonly resumesAt?: string };
  readonly action: Readonly<Record<string, unknown>> | null;
}

export interface TestRun {
  readonly id: string;
  readonly companyId: string;
  readonly sequenceId: string;
  readonly subscriberId: string | null;
  readonly initiatedByUserId: string | null;
  readonly status: TestRunStatus;
  readonly recipientEmails: readonly string[];
  readonly speedMultiplier: number;
  readonly customVariables: Readonly<Record<string, unknown>>;
  readonly steps: readonly TestRunStep[];
  /** The node the run is at: about to run it, or waiting on it while `resumeAt` is set. */
  readonly currentNodeId: string;
  readonly resumeAt: Date | null;
  readonly errorMessage: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
}

export const TEST_RUN_NOT_FOUND = notFound("Test run not found");

export const isOver = (status: TestRunStatus): boolean => status === "completed" || status === "failed";
