import { notFound } from "../shared/errors.js";

/** The states of one contact's run through a sequence (compat-reference §10, enrollments). */
export const ENROLLMENT_STATUSES = ["active", "waiting", "completed", "failed", "cancelled"] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/** Still on its way: the engine will move it on. */
export const RUNNING_STATUSES: readonly EnrollmentStatus[] = ["active", "waiting"];

/** Where an enrollment came from. */
export type EnrollmentSource = "trigger" | "api";

/** What the run knows of what started it: the trigger event, for `{{event.x}}`. */
export interface EnrollmentContext {
  readonly event?: { readonly name: string; readonly properties: Readonly<Record<string, unknown>> };
  /** Answers of webhook steps by their `resultKey`, for `{{resultKey.x}}` in later steps. */
  readonly results?: Readonly<Record<string, unknown>>;
  /** When the wait for an event the enrollment is in began (ISO 8601): events since then end it. */
  readonly waitingSince?: string;
  /** What the sequence's stop condition compares against, taken before the first step. */
  readonly stopBaseline?: { readonly key: string; readonly value: unknown };
  /** The value a matching_field sequence entered the contact for (its `enrollmentKey`). */
  readonly enrollmentKey?: string;
}

/** Where an enrollment is and when the engine should look at it next. */
export interface EnrollmentState {
  readonly status: EnrollmentStatus;
  /** The node it is about to run (active) or waiting on (waiting); where it stopped otherwise. */
  readonly currentNodeId: string;
  /** When the engine should move it next; null once it is finished. */
  readonly dueAt: Date | null;
  /** The end of the wait it is in (waiting only). */
  readonly waitUntil: Date | null;
  /** Keeps the contact from entering again while set (see the migration). */
  readonly entryKey: string | null;
  readonly failedReason: string | null;
  readonly finishedAt: Date | null;
  /** A new context (a step stored something in it); the current one is kept when absent. */
  readonly context?: EnrollmentContext;
}

/** Who moved an enrollment to another node: the move endpoint, or a graph edit that deleted the node it was at. */
export type MoveSource = "api" | "graph_edit";

/** The last time an enrollment was moved off its node, and why. */
export interface EnrollmentMove {
  readonly fromNodeId: string;
  readonly at: Date;
  readonly reason: string | null;
  readonly by: MoveSource;
}

export interface Enrollment extends EnrollmentState {
  readonly id: string;
  readonly companyId: string;
  readonly sequenceId: string;
  readonly subscriberId: string;
  /** Steps recorded so far: the compare-and-set token of the next step. */
  readonly stepCount: number;
  readonly context: EnrollmentContext;
  readonly source: EnrollmentSource;
  readonly startedAt: Date;
  readonly updatedAt: Date;
  /** Absent or null: never moved. */
  readonly move?: EnrollmentMove | null;
}

/** The outcome of one step, recorded with the state it led to. */
export interface StepRecord {
  readonly nodeId: string;
  readonly nodeType: string;
  /** What happened: `email_queued`, `waiting`, `waited`, `tag_added`, `yes`, `completed`, `cancelled`... */
  readonly outcome: string;
  readonly detail: Readonly<Record<string, unknown>> | null;
  readonly emailSendId: string | null;
  readonly at: Date;
}

export const ENROLLMENT_NOT_FOUND = notFound("Enrollment not found");
