import * as t from "io-ts";
import { ArchiveSequence } from "../../../core/sequences/archive-sequence.js";
import { CreateSequenceCommand, DuplicateSequenceCommand, ListSequencesQuery, SequencePath, UpdateSequenceCommand } from "../../../core/sequences/commands.js";
import { CreateSequence } from "../../../core/sequences/create-sequence.js";
import { DeleteSequence } from "../../../core/sequences/delete-sequence.js";
import { DuplicateSequence } from "../../../core/sequences/duplicate-sequence.js";
import { GetSequence } from "../../../core/sequences/get-sequence.js";
import { ListSequences } from "../../../core/sequences/list-sequences.js";
import { MoveEnrollments } from "../../../core/sequences/move-enrollments.js";
import { MAX_GRAPH_NODES, UNSUPPORTED_NODE_TYPES } from "../../../core/sequences/model.js";
import { CancelEnrollments } from "../../../core/sequences/cancel-enrollments.js";
import { EnrollInSequence } from "../../../core/sequences/enroll-in-sequence.js";
import {
  CancelEnrollmentsCommand,
  DEFAULT_MOVE_LIMIT,
  EnrollCommand,
  EnrollmentPath,
  ListEnrollmentsQuery,
  MAX_MOVE_LIMIT,
  MAX_MOVE_TAGS,
  MoveEnrollmentsCommand,
} from "../../../core/sequences/enrollment-commands.js";
import { EnrollmentView } from "../../../core/sequences/enrollment-view.js";
import { ListEnrollments } from "../../../core/sequences/list-enrollments.js";
import { SetSequenceStatus } from "../../../core/sequences/set-sequence-status.js";
import { UpdateSequence } from "../../../core/sequences/update-sequence.js";
import {
  EditedSequenceView,
  SequenceDetailView,
  SequenceStatusView,
  SequenceEdgeView,
  SequenceNodeView,
  SequenceSummaryView,
} from "../../../core/sequences/view.js";
import { OffsetPaginationView } from "../../../core/shared/offset-pagination.js";
import { Id, JsonObject, view, viewWithOptional } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const NOT_RUNNING = "Enable it to start it (POST /sequences/{id}/enable)";
const STATUS_FIELDS = { sequenceId: Id, ...SequenceStatusView.type.props };
const { status: _status, ...PAUSE_FIELDS } = STATUS_FIELDS;
const GRAPH_RULES = `The graph is checked as a whole on every write (400 'Invalid sequence graph: ...'): one trigger and one completion node, at most ${MAX_GRAPH_NODES} nodes, every node reachable from the trigger, no loop without a logic_delay, logic_condition leaving by 'yes' and 'no', logic_branch by each path ID (plus 'else' in condition mode; random percentages sum to 100). Node types ${UNSUPPORTED_NODE_TYPES.join(", ")} are not supported here (400)`;

const EventTrackingView = view({ eventName: t.string, endpoint: t.string, method: t.string, examplePayload: JsonObject }, "EventTracking");

/** Sequences and their graphs (compat-reference §10). */
export const sequencesRoutes = routeModule(
  {
    listSequences: ListSequences,
    getSequence: GetSequence,
    createSequence: CreateSequence,
    updateSequence: UpdateSequence,
    deleteSequence: DeleteSequence,
    archiveSequence: ArchiveSequence,
    duplicateSequence: DuplicateSequence,
    setStatus: SetSequenceStatus,
    enroll: EnrollInSequence,
    listEnrollments: ListEnrollments,
    cancelEnrollments: CancelEnrollments,
    moveEnrollments: MoveEnrollments,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/sequences",
      tag: "Sequences",
      scopes: ["sequences:read"],
      summary:
        "List sequences, newest first; status, search (part of the name), labels (comma list: any of them); limit 1-100 and offset (neither: every sequence, pagination.limit null)",
      query: ListSequencesQuery,
      response: view({ sequences: t.readonlyArray(SequenceSummaryView), pagination: OffsetPaginationView }),
      errors: [422],
      handle: async ({ input, actor }) => uses.listSequences.execute(actor, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/sequences/:sequenceId",
      tag: "Sequences",
      scopes: ["sequences:read"],
      summary: "One sequence with its graph (nodes, edges, graphRevision) and its emails; 404 'Sequence not found'",
      params: SequencePath,
      response: view({ sequence: SequenceDetailView }),
      errors: [404],
      handle: async ({ input, actor }) => under("sequence")(await uses.getSequence.execute(actor, input.params.sequenceId)),
    }),
    defineRoute({
      method: "post",
      path: "/sequences",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: `Create a sequence, always a disabled draft: blank (trigger -> completion), or steps[] one after the other (email steps: subject and html or blocks; type update_subscriber; or {nodeType, config}; delayDays/delayHours/delayMinutes put a delay before a step). Trigger fields as the compat create body; event triggers answer eventTracking. AI generation (goal) is not available (400). ${GRAPH_RULES}. ${NOT_RUNNING}`,
      body: CreateSequenceCommand,
      response: viewWithOptional(
        { sequence: SequenceDetailView, message: t.string },
        { eventTrackingCode: t.string, eventTracking: EventTrackingView, requiredEvents: t.readonlyArray(t.string) },
      ),
      errors: [400, 422],
      handle: async ({ input, actor }) => uses.createSequence.execute(actor, input.body),
    }),
    defineRoute({
      method: "put",
      path: "/sequences/:sequenceId",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: `Change settings (create fields, enrollmentPaused; null clears enrollmentFieldPath, sendingWindow, bccEmails) and at most one graph form: nodeUpdates [{nodeId, changes {config, position}, expectedUpdatedAt}] (config changes merge; null removes a field), insertSteps {afterNodeId?, steps[], expectedRevision?}, or graphEdit {action move_node|delete_node|duplicate_node|replace_edges, expectedRevision, nodeId, afterNodeId|beforeNodeId, edges}. emails[] / steps[] (edit email steps found by nodeId, emailId or order; changes merge, null removes), subscriberUpdateSteps [{nodeId, config}] (config replaced), or branch {afterNodeId, label, splitMode, randomPercentages, branches [{id, condition fields, steps?, targetNodeId?}], elseSteps, elseTargetNodeId, allowEmptyPaths}. A stale expectedUpdatedAt or expectedRevision is 409 and changes nothing; every graph change raises graphRevision by one. smsSteps is not supported (400). Archived sequences cannot be edited (400). ${GRAPH_RULES}`,
      params: SequencePath,
      body: UpdateSequenceCommand,
      response: view({ sequence: EditedSequenceView }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => under("sequence")(await uses.updateSequence.execute(actor, input.params.sequenceId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/sequences/:sequenceId",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: "Delete a sequence and its graph; 404 'Sequence not found'",
      params: SequencePath,
      response: view({ sequenceId: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteSequence.execute(actor, input.params.sequenceId),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/enable",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary:
        "Start a draft or disabled sequence: it enrolls contacts as its trigger fires and moves current ones along. 400 naming what this server cannot run (trigger, node type, condition, a sender the company can send from), 400 when archived; enabling a live sequence changes nothing",
      params: SequencePath,
      response: view(STATUS_FIELDS),
      errors: [400, 404, 409],
      handle: async ({ input, actor }) => uses.setStatus.enable(actor, input.params.sequenceId),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/disable",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: "Stop a live sequence (status paused): no one enters, and current contacts wait where they are until it is enabled again. 400 when archived",
      params: SequencePath,
      response: view(STATUS_FIELDS),
      errors: [400, 404, 409],
      handle: async ({ input, actor }) => uses.setStatus.disable(actor, input.params.sequenceId),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/pause-enrollments",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: "Stop new entries only: current contacts go on (effectiveStatus enrollment_paused while live). 400 when archived",
      params: SequencePath,
      response: view(PAUSE_FIELDS),
      errors: [400, 404, 409],
      handle: async ({ input, actor }) => uses.setStatus.pauseEnrollments(actor, input.params.sequenceId),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/resume-enrollments",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: "Take new entries again after pause-enrollments. 400 when archived",
      params: SequencePath,
      response: view(PAUSE_FIELDS),
      errors: [400, 404, 409],
      handle: async ({ input, actor }) => uses.setStatus.resumeEnrollments(actor, input.params.sequenceId),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/enroll",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary:
        "Enroll contacts by emails[] and/or subscriberIds[] (1-500 together) at targetNodeId (default: the first step after the trigger). Only active contacts, confirmed when double opt-in applies, and not already on their way (ever, for one_time) enter; the others count as skipped, unknown ones are listed in notFound. A draft or disabled sequence keeps them until it is enabled; 400 when archived",
      params: SequencePath,
      body: EnrollCommand,
      response: view({
        sequence: SequenceSummaryView,
        enrollments: t.readonlyArray(EnrollmentView),
        enrolled: t.number,
        skipped: t.number,
        notFound: t.readonlyArray(t.string),
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.enroll.execute(actor, input.params.sequenceId, input.body),
    }),
    defineRoute({
      method: "get",
      path: "/sequences/:sequenceId/enrollments",
      tag: "Sequences",
      scopes: ["sequences:read"],
      summary:
        "A sequence's enrollments: status (comma list of active, waiting, completed, failed, cancelled; default active,waiting), subscriberId (comma list), email, currentNodeId; sort enrolled_at_desc (default), enrolled_at_asc, wait_until_asc, wait_until_desc; limit 1-500 (50), offset; stopConditionMatch=true (limit up to 100) checks each listed enrollment against the sequence's stop condition now (stopConditionMatches, stopConditionMatchReason)",
      params: SequencePath,
      query: ListEnrollmentsQuery,
      response: view({
        sequenceId: Id,
        sequenceName: t.string,
        statuses: t.readonlyArray(t.string),
        stopCondition: JsonObject,
        stopConditionMatchEvaluatedCount: t.number,
        pagination: OffsetPaginationView,
        enrollments: t.readonlyArray(EnrollmentView),
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.listEnrollments.execute(actor, input.params.sequenceId, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/sequences/:sequenceId/enrollments/:enrollmentId",
      tag: "Sequences",
      scopes: ["sequences:read"],
      summary: "One enrollment; 404 'Sequence not found' or 'Enrollment not found'",
      params: EnrollmentPath,
      response: view({ enrollment: EnrollmentView }),
      errors: [404],
      handle: async ({ input, actor }) => under("enrollment")(await uses.listEnrollments.get(actor, input.params.sequenceId, input.params.enrollmentId)),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/enrollments/cancel",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary:
        "Cancel running enrollments (active, waiting): exactly one of cancelAll: true, subscriberId, subscriberIds[] (<=500), fieldValues[] (<=500, matching_field sequences: the enrollments entered for those values; fieldPath, if given, must be the sequence's enrollmentFieldPath). Bulk targets are a dry run unless dryRun: false; a single subscriberId is applied unless dryRun: true. reason is kept as the enrollments' failedReason",
      params: SequencePath,
      body: CancelEnrollmentsCommand,
      response: view({
        sequenceId: Id,
        dryRun: t.boolean,
        target: view({ mode: t.string, notFoundSubscriberIds: t.readonlyArray(t.string) }),
        matchedCount: t.number,
        cancelledCount: t.number,
        remainingCount: t.number,
        enrollments: t.readonlyArray(EnrollmentView),
        hasMore: t.boolean,
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.cancelEnrollments.execute(actor, input.params.sequenceId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/enrollments/move",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: `Move running enrollments (active, waiting) at fromNodeId to targetNodeId (a step; default: the node after fromNodeId when it has one way out), where they go on at once (a delay or wait there begins afresh). A dry run unless dryRun: false. limit 1-${MAX_MOVE_LIMIT} (${DEFAULT_MOVE_LIMIT}) per request in sort order (wait_until_asc default), subscriberIds[] to move only those contacts; dailyLimit caps the sequence's moves through this endpoint over the last 24 hours (movedInWindow, dailyRemaining; effectiveLimit is what this request may move). tags[] (<=${MAX_MOVE_TAGS}) are added to the contacts moved (tagResult); reason is kept as the enrollments' moveReason. hasMore: enrollments at fromNodeId remain after this batch. 404 'Sequence not found'; 400 when archived or the target is not a step`,
      params: SequencePath,
      body: MoveEnrollmentsCommand,
      response: view({
        sequenceId: Id,
        dryRun: t.boolean,
        fromNodeId: t.string,
        targetNodeId: t.string,
        sort: t.string,
        requestedLimit: t.number,
        effectiveLimit: t.number,
        matchedCount: t.number,
        movedCount: t.number,
        remainingCount: t.number,
        skippedCount: t.number,
        dailyLimit: t.union([t.number, t.null]),
        movedInWindow: t.number,
        dailyRemaining: t.union([t.number, t.null]),
        enqueuedCount: t.number,
        enqueueErrors: t.readonlyArray(t.string),
        tagResult: t.union([view({ tags: t.readonlyArray(t.string), taggedCount: t.number }), t.null]),
        enrollments: t.readonlyArray(EnrollmentView),
        hasMore: t.boolean,
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.moveEnrollments.execute(actor, input.params.sequenceId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/archive",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: "Archive a sequence (archiving an archived one changes nothing); 404 'Sequence not found'",
      params: SequencePath,
      response: view({ sequence: SequenceDetailView }),
      errors: [404, 409],
      handle: async ({ input, actor }) => under("sequence")(await uses.archiveSequence.archive(actor, input.params.sequenceId)),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/unarchive",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: "Unarchive a sequence: it becomes a disabled draft; 400 when it is not archived, 404 'Sequence not found'",
      params: SequencePath,
      response: view({ sequence: SequenceDetailView }),
      errors: [400, 404, 409],
      handle: async ({ input, actor }) => under("sequence")(await uses.archiveSequence.unarchive(actor, input.params.sequenceId)),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/duplicate",
      tag: "Sequences",
      scopes: ["sequences:write"],
      summary: "Copy a sequence as a disabled draft with new node IDs; name defaults to '<name> (copy)'. 404 'Sequence not found'",
      params: SequencePath,
      body: DuplicateSequenceCommand,
      response: view({ sequence: SequenceDetailView, nodes: t.readonlyArray(SequenceNodeView), edges: t.readonlyArray(SequenceEdgeView) }),
      errors: [404, 422],
      handle: async ({ input, actor }) => uses.duplicateSequence.execute(actor, input.params.sequenceId, input.body),
    }),
  ],
);
