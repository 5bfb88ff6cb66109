import * as t from "io-ts";
import { SequencePath } from "../../../core/sequences/commands.js";
import { MAX_CONTACTS_PER_REQUEST, MAX_REALIGN_NODES, RealignmentPath, RealignSendingWindowCommand } from "../../../core/sequences/enrollment-commands.js";
import { REALIGN_PAGE, RealignSendingWindow } from "../../../core/sequences/realign-sending-window.js";
import { REALIGNMENT_STATUSES } from "../../../core/sequences/realignment.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../../../core/shared/view-fields.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

const Counts = {
  scannedCount: t.number,
  realignedCount: t.number,
  unchangedCount: t.number,
  unchangedReasons: t.record(t.string, t.number),
  requeueFailedCount: t.number,
};

const RealignChangeView = view(
  { enrollmentId: Id, subscriberId: Id, email: NullableString, nodeId: t.string, fromWaitUntil: Timestamp, toWaitUntil: Timestamp },
  "RealignChange",
);

const RULES =
  "Runs waiting at an email step wait only for the sending window: each moves to the first moment the sequence's window allows from now (at once when the window is off or open). Runs waiting out a delay or for an event are left (unchangedReasons.not_waiting_for_sending_window), and so are those already there (already_aligned)";

/** Realigning waiting runs with a sequence's sending window (compat-reference §10, Realign). */
export const sequenceRealignRoutes = routeModule({ realign: RealignSendingWindow }, (uses) => [
  defineRoute({
    method: "post",
    path: "/sequences/:sequenceId/enrollments/realign-sending-window",
    tag: "Sequences",
    scopes: ["sequences:write"],
    summary: `Realign the sequence's waiting runs with its sending window as it is now. ${RULES}. nodeIds[] (<=${MAX_REALIGN_NODES}) and subscriberIds[] (<=${MAX_CONTACTS_PER_REQUEST}) narrow it. A dry run unless dryRun: false: it reads ${REALIGN_PAGE} runs from cursor and answers the counts, changes[] (<=50), hasMore and nextCursor, changing nothing. Applied, it is queued as a job: {status: "queued", jobId}. 404 'Sequence not found'`,
    params: SequencePath,
    body: RealignSendingWindowCommand,
    response: t.union([
      view({
        sequenceId: Id,
        dryRun: t.literal(true),
        ...Counts,
        changes: t.readonlyArray(RealignChangeView),
        hasMore: t.boolean,
        nextCursor: NullableString,
      }),
      view({ sequenceId: Id, dryRun: t.literal(false), status: t.literal("queued"), jobId: Id }),
    ]),
    errors: [404, 422],
    handle: async ({ input, actor }) => uses.realign.execute(actor, input.params.sequenceId, input.body),
  }),
  defineRoute({
    method: "get",
    path: "/sequences/:sequenceId/enrollments/realign-sending-window/jobs/:jobId",
    tag: "Sequences",
    scopes: ["sequences:read"],
    summary: "A queued realignment: status (queued, running, completed, failed), result (the counts so far) and error. 404 'Realignment job not found'",
    params: RealignmentPath,
    response: view({
      jobId: Id,
      sequenceId: Id,
      status: oneOf(REALIGNMENT_STATUSES),
      result: view(Counts, "RealignmentCounts"),
      error: NullableString,
      createdAt: Timestamp,
      finishedAt: NullableTimestamp,
    }),
    errors: [404],
    handle: async ({ input, actor }) => uses.realign.get(actor, input.params.sequenceId, input.params.jobId),
  }),
]);
