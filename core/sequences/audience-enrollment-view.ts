import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { AUDIENCE_ENROLLMENT_STATUSES, type AudienceEnrollment } from "./audience-enrollment.js";

const AudienceView = t.union(
  [
    view({ type: t.literal("all") }),
    view({ type: t.literal("list"), listId: Id }),
    view({ type: t.literal("segment"), segmentId: Id }),
    view({ type: t.literal("tag"), tag: t.string }),
  ],
  "AudienceView",
);

/** The spec's "Audience enrollment run" resource. */
export const AudienceEnrollmentView = view(
  {
    id: Id,
    sequenceId: Id,
    status: oneOf(AUDIENCE_ENROLLMENT_STATUSES, "AudienceEnrollmentStatus"),
    audience: AudienceView,
    targetNodeId: NullableString,
    estimatedCount: t.number,
    processedCount: t.number,
    enrolledCount: t.number,
    skippedCount: t.number,
    source: t.string,
    error: NullableString,
    createdAt: Timestamp,
    startedAt: NullableTimestamp,
    completedAt: NullableTimestamp,
    cancelRequestedAt: NullableTimestamp,
  },
  "AudienceEnrollment",
);
export type AudienceEnrollmentView = t.TypeOf<typeof AudienceEnrollmentView>;

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toAudienceEnrollmentView(run: AudienceEnrollment): AudienceEnrollmentView {
  return {
    id: run.id,
    sequenceId: run.sequenceId,
    status: run.status,
    audience: run.audience,
    targetNodeId: run.targetNodeId,
    estimatedCount: run.estimatedCount,
    processedCount: run.processedCount,
    enrolledCount: run.enrolledCount,
    skippedCount: run.skippedCount,
    source: run.source,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    completedAt: iso(run.completedAt),
    cancelRequestedAt: iso(run.cancelRequestedAt),
  };
}
