import * as t from "io-ts";
import { boundedText, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { cursorPageFields } from "../shared/pagination.js";

/** Inputs of the audience-enrollment routes (decisions.md, "Sequences: audience enrollments"). */

const Id = boundedText(100);

export const AudienceInput = t.union(
  [
    t.exact(t.type({ type: t.literal("all") }), "AllContacts"),
    t.exact(t.type({ type: t.literal("list"), listId: Id }), "ListAudience"),
    t.exact(t.type({ type: t.literal("segment"), segmentId: Id }), "SegmentAudience"),
    t.exact(t.type({ type: t.literal("tag"), tag: boundedText(100) }), "TagAudience"),
  ],
  "Audience",
);

/** POST /sequences/{sequenceId}/audience-enrollments. */
export const StartAudienceEnrollmentCommand = t.exact(
  t.intersection([t.type({ audience: AudienceInput }), t.partial({ targetNodeId: optional(Id) })]),
  "StartAudienceEnrollmentCommand",
);
export type StartAudienceEnrollmentCommand = t.TypeOf<typeof StartAudienceEnrollmentCommand>;

/** GET /sequences/{sequenceId}/audience-enrollments: decisions.md cursor pagination. */
export const ListAudienceEnrollmentsQuery = t.exact(t.partial(cursorPageFields), "ListAudienceEnrollmentsQuery");
export type ListAudienceEnrollmentsQuery = t.TypeOf<typeof ListAudienceEnrollmentsQuery>;

export const AudienceEnrollmentPath = t.type({ sequenceId: TrimmedNonEmpty, runId: TrimmedNonEmpty }, "AudienceEnrollmentPath");
