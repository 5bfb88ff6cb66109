import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { BooleanFromString, boundedText, Email, integerBetween, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { MAX_OFFSET } from "../shared/offset-pagination.js";

/** Inputs of the enrollment routes (compat-reference §10). */

/** Contacts named in one enroll or cancel request, at most. */
export const MAX_CONTACTS_PER_REQUEST = 500;

const Id = boundedText(100);

/** POST /sequences/{id}/enroll. */
export const EnrollCommand = t.exact(
  t.partial({
    emails: optional(boundedArray(Email, 0, MAX_CONTACTS_PER_REQUEST)),
    subscriberIds: optional(boundedArray(Id, 0, MAX_CONTACTS_PER_REQUEST)),
    targetNodeId: optional(Id),
  }),
  "EnrollCommand",
);
export type EnrollCommand = t.TypeOf<typeof EnrollCommand>;

export const ENROLLMENT_SORTS = ["enrolled_at_desc", "enrolled_at_asc", "wait_until_asc", "wait_until_desc"] as const;

/** GET /sequences/{id}/enrollments: `status` and `subscriberId` take comma lists. */
export const ListEnrollmentsQuery = t.exact(
  t.partial({
    status: optional(boundedText(200)),
    subscriberId: optional(boundedText(MAX_CONTACTS_PER_REQUEST * 45)),
    email: optional(boundedText(320)),
    currentNodeId: optional(Id),
    sort: optional(oneOf(ENROLLMENT_SORTS, "EnrollmentSort")),
    limit: optional(integerBetween(1, 500)),
    offset: optional(integerBetween(0, MAX_OFFSET)),
    stopConditionMatch: optional(BooleanFromString),
  }),
  "ListEnrollmentsQuery",
);
export type ListEnrollmentsQuery = t.TypeOf<typeof ListEnrollmentsQuery>;

export const EnrollmentPath = t.type({ sequenceId: TrimmedNonEmpty, enrollmentId: TrimmedNonEmpty }, "EnrollmentPath");

/** POST /sequences/{id}/enrollments/cancel: exactly one target; bulk targets are a dry run unless dryRun is false. */
export const CancelEnrollmentsCommand = t.exact(
  t.partial({
    cancelAll: optional(t.boolean),
    subscriberId: optional(Id),
    subscriberIds: optional(boundedArray(Id, 1, MAX_CONTACTS_PER_REQUEST)),
    fieldValues: optional(boundedArray(boundedText(255), 1, MAX_CONTACTS_PER_REQUEST)),
    fieldPath: optional(boundedText(255)),
    dryRun: optional(t.boolean),
    reason: optional(boundedText(500)),
  }),
  "CancelEnrollmentsCommand",
);
export type CancelEnrollmentsCommand = t.TypeOf<typeof CancelEnrollmentsCommand>;
