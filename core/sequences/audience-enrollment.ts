import { invalidState, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";

/**
 * Audience enrollments: a whole audience (every contact, a list, a segment or a tag) put into a
 * sequence in the background, batch by batch (spec resource "Audience enrollment run",
 * decisions.md). `queued` until its first batch starts it; `running` while batches go on;
 * `completed` once the audience is exhausted; `cancelled` when cancelled while queued, or when
 * a running one observes its cancel request after the batch being enrolled; `failed` when its
 * job gave up or the sequence can no longer take the audience.
 */
export const AUDIENCE_ENROLLMENT_STATUSES = ["queued", "running", "completed", "cancelled", "failed"] as const;
export type AudienceEnrollmentStatus = (typeof AUDIENCE_ENROLLMENT_STATUSES)[number];

const TERMINAL: readonly AudienceEnrollmentStatus[] = ["completed", "cancelled", "failed"];
export const isFinished = (status: AudienceEnrollmentStatus): boolean => TERMINAL.includes(status);

/** Who is enrolled: every contact of the company, a list's members, a segment's matches, or the contacts with a tag. */
export type Audience =
  | { readonly type: "all" }
  | { readonly type: "list"; readonly listId: string }
  | { readonly type: "segment"; readonly segmentId: string }
  | { readonly type: "tag"; readonly tag: string };

export interface AudienceEnrollment {
  readonly id: string;
  readonly companyId: string;
  readonly sequenceId: string;
  readonly status: AudienceEnrollmentStatus;
  readonly audience: Audience;
  /** Where the contacts enter; null: the first step after the trigger. */
  readonly targetNodeId: string | null;
  /** The audience's size when the run was started. */
  readonly estimatedCount: number;
  readonly processedCount: number;
  readonly enrolledCount: number;
  /** Contacts not active, unconfirmed under double opt-in, or already on their way through the sequence. */
  readonly skippedCount: number;
  readonly source: "api";
  readonly error: string | null;
  /** The greatest contact ID processed: the next batch starts after it. */
  readonly cursor: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly startedAt: Date | null;
  readonly completedAt: Date | null;
  readonly cancelRequestedAt: Date | null;
}

export type AudienceEnrollmentEvent =
  | { readonly type: "start" }
  | { readonly type: "batch"; readonly enrolled: number; readonly skipped: number; readonly cursor: string }
  /** The audience has no contact left after the cursor. */
  | { readonly type: "exhausted" }
  /** A running run with a cancel request stops (between batches). */
  | { readonly type: "stop" }
  | { readonly type: "cancel" }
  | { readonly type: "fail"; readonly error: string };

export const AUDIENCE_ENROLLMENT_NOT_FOUND = notFound("Audience enrollment not found");

const ended = (run: AudienceEnrollment, status: AudienceEnrollmentStatus, now: Date): AudienceEnrollment => ({
  ...run,
  status,
  updatedAt: now,
  completedAt: now,
});

const refuse = (run: AudienceEnrollment, event: AudienceEnrollmentEvent) =>
  fail<AudienceEnrollment>(
    invalidState(
      event.type === "cancel"
        ? `Audience enrollment is already ${run.status} and cannot be cancelled`
        : `Audience enrollment is ${run.status}: cannot apply ${event.type}`,
    ),
  );

/** The pure state machine of an audience enrollment (the spec's table for cancel). */
export function transition(run: AudienceEnrollment, event: AudienceEnrollmentEvent, now: Date): Result<AudienceEnrollment> {
  const { status } = run;
  switch (event.type) {
    case "start":
      return status === "queued" ? ok({ ...run, status: "running", startedAt: now, updatedAt: now }) : refuse(run, event);
    case "batch":
      if (status !== "running") return refuse(run, event);
      return ok({
        ...run,
        processedCount: run.processedCount + event.enrolled + event.skipped,
        enrolledCount: run.enrolledCount + event.enrolled,
        skippedCount: run.skippedCount + event.skipped,
        cursor: event.cursor,
        updatedAt: now,
      });
    case "exhausted":
      return status === "running" ? ok(ended(run, "completed", now)) : refuse(run, event);
    case "stop":
      return status === "running" && run.cancelRequestedAt !== null ? ok(ended(run, "cancelled", now)) : refuse(run, event);
    case "cancel":
      // queued: cancelled at once. running: the request is noted; the run stops after the batch being enrolled.
      if (status === "queued") return ok({ ...ended(run, "cancelled", now), cancelRequestedAt: now });
      if (status === "running") return ok({ ...run, cancelRequestedAt: run.cancelRequestedAt ?? now, updatedAt: now });
      return refuse(run, event);
    case "fail":
      return status === "queued" || status === "running" ? ok({ ...ended(run, "failed", now), error: event.error }) : refuse(run, event);
  }
}
