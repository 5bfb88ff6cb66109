import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { BooleanFromString, boundedText, Email, integerBetween, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { MAX_OFFSET } from "../shared/offset-pagination.js";
import { TagNameInput } from "../tags/tag-name-input.js";

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

/** Enrollments one move request moves, by default and at most. */
export const DEFAULT_MOVE_LIMIT = 100;
export const MAX_MOVE_LIMIT = 500;
/** Tags one move request may put on the contacts it moves. */
export const MAX_MOVE_TAGS = 10;

/**
 * POST /sequences/{id}/enrollments/move: the running enrollments at `fromNodeId` go on at
 * `targetNodeId`; a dry run unless dryRun is false.
 */
export const MoveEnrollmentsCommand = t.exact(
  t.intersection([
    t.type({ fromNodeId: Id }),
    t.partial({
      targetNodeId: optional(Id),
      limit: optional(integerBetween(1, MAX_MOVE_LIMIT)),
      dailyLimit: optional(integerBetween(1, 1_000_000)),
      sort: optional(oneOf(ENROLLMENT_SORTS, "EnrollmentSort")),
      subscriberIds: optional(boundedArray(Id, 1, MAX_CONTACTS_PER_REQUEST)),
      tags: optional(boundedArray(TagNameInput, 1, MAX_MOVE_TAGS)),
      reason: optional(boundedText(500)),
      dryRun: optional(t.boolean),
    }),
  ]),
  "MoveEnrollmentsCommand",
);
export type MoveEnrollmentsCommand = t.TypeOf<typeof MoveEnrollmentsCommand>;

/** Node IDs a realignment may name. */
export const MAX_REALIGN_NODES = 100;

/** POST /sequences/{id}/enrollments/realign-sending-window (compat-reference §10, Realign). */
export const RealignSendingWindowCommand = t.exact(
  t.partial({
    nodeIds: optional(boundedArray(Id, 1, MAX_REALIGN_NODES)),
    subscriberIds: optional(boundedArray(Id, 1, MAX_CONTACTS_PER_REQUEST)),
    cursor: optional(Id),
    dryRun: optional(t.boolean),
  }),
  "RealignSendingWindowCommand",
);
export type RealignSendingWindowCommand = t.TypeOf<typeof RealignSendingWindowCommand>;

export const RealignmentPath = t.type({ sequenceId: TrimmedNonEmpty, jobId: TrimmedNonEmpty }, "RealignmentPath");
