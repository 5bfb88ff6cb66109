import * as t from "io-ts";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";
import type { EnrollmentWithContact } from "./enrollment-ports.js";
import type { Sequence } from "./model.js";

/** An enrollment as the API shows it (compat-reference §10): the required fields are never null. */
export const EnrollmentView = view(
  {
    enrollmentId: Id,
    sequenceId: Id,
    subscriberId: Id,
    email: NullableString,
    firstName: NullableString,
    lastName: NullableString,
    subscriberStatus: NullableString,
    status: t.string,
    currentNodeId: t.string,
    currentNodeType: NullableString,
    currentNodeLabel: NullableString,
    currentNodeMissing: t.boolean,
    enrollmentKey: NullableString,
    enrollmentStartedAt: Timestamp,
    waitUntil: t.union([Timestamp, t.null]),
    lastUpdatedAt: Timestamp,
    finishedAt: t.union([Timestamp, t.null]),
    failedReason: NullableString,
    movedFromNodeId: NullableString,
    movedAt: t.union([Timestamp, t.null]),
    moveReason: NullableString,
    stopConditionMatches: t.union([t.boolean, t.null]),
    stopConditionMatchReason: NullableString,
  },
  "SequenceEnrollment",
);
export type EnrollmentView = t.TypeOf<typeof EnrollmentView>;

export const labelOf = (config: Readonly<Record<string, unknown>>): string | null =>
  typeof config.label === "string" ? config.label : typeof config.name === "string" ? config.name : typeof config.subject === "string" ? config.subject : null;

/** Whether the sequence's stop condition holds for an enrollment now (listed with `stopConditionMatch=true`). */
export interface StopConditionMatch {
  readonly matches: boolean;
  readonly reason: string | null;
}

export function toEnrollmentView(sequence: Sequence, enrollment: EnrollmentWithContact, match: StopConditionMatch | null = null): EnrollmentView {
  const node = sequence.graph.nodes.find((candidate) => candidate.id === enrollment.currentNodeId);
  return {
    enrollmentId: enrollment.id,
    sequenceId: enrollment.sequenceId,
    subscriberId: enrollment.subscriberId,
    email: enrollment.email,
    firstName: enrollment.firstName,
    lastName: enrollment.lastName,
    subscriberStatus: enrollment.subscriberStatus,
    status: enrollment.status,
    currentNodeId: enrollment.currentNodeId,
    currentNodeType: node?.nodeType ?? null,
    currentNodeLabel: node ? labelOf(node.config) : null,
    currentNodeMissing: node === undefined,
    // The matching_field value the contact entered for; other modes tell enrollments apart by contact.
    enrollmentKey: enrollment.context.enrollmentKey ?? null,
    enrollmentStartedAt: enrollment.startedAt.toISOString(),
    waitUntil: enrollment.waitUntil?.toISOString() ?? null,
    lastUpdatedAt: enrollment.updatedAt.toISOString(),
    finishedAt: enrollment.finishedAt?.toISOString() ?? null,
    failedReason: enrollment.failedReason,
    movedFromNodeId: enrollment.move?.fromNodeId ?? null,
    movedAt: enrollment.move?.at.toISOString() ?? null,
    moveReason: enrollment.move?.reason ?? null,
    stopConditionMatches: match?.matches ?? null,
    stopConditionMatchReason: match?.reason ?? null,
  };
}
