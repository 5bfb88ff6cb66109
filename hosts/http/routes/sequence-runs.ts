import * as t from "io-ts";
import { AUDIENCE_BATCH } from "../../../core/sequences/advance-audience-enrollment.js";
import { AudienceEnrollmentPath, ListAudienceEnrollmentsQuery, StartAudienceEnrollmentCommand } from "../../../core/sequences/audience-enrollment-commands.js";
import { AudienceEnrollmentView } from "../../../core/sequences/audience-enrollment-view.js";
import { CancelAudienceEnrollment } from "../../../core/sequences/cancel-audience-enrollment.js";
import { SequencePath } from "../../../core/sequences/commands.js";
import { ListAudienceEnrollments } from "../../../core/sequences/list-audience-enrollments.js";
import { StartAudienceEnrollment } from "../../../core/sequences/start-audience-enrollment.js";
import { MAX_SIMULATED_EMAILS, SimulateSequence, SimulateSequenceQuery } from "../../../core/sequences/simulate-sequence.js";
import { StartTestRun } from "../../../core/sequences/start-test-run.js";
import { MAX_SPEED_MULTIPLIER, MIN_SPEED_MULTIPLIER, DEFAULT_SPEED_MULTIPLIER } from "../../../core/sequences/test-run.js";
import { MAX_TEST_RUN_RECIPIENTS, StartTestRunCommand, TestRunPath } from "../../../core/sequences/test-run-commands.js";
import { TestRunView } from "../../../core/sequences/test-run-view.js";
import { Id, NullableString, Timestamp, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Sequences";

/** Background runs of a sequence: audience enrollments and test runs (spec resources, decisions.md). */
export const sequenceRunsRoutes = routeModule(
  {
    startAudienceEnrollment: StartAudienceEnrollment,
    listAudienceEnrollments: ListAudienceEnrollments,
    cancelAudienceEnrollment: CancelAudienceEnrollment,
    testRuns: StartTestRun,
    simulate: SimulateSequence,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/audience-enrollments",
      tag: TAG,
      scopes: ["sequences:write"],
      summary: `Enroll an audience in the background: audience {type: all} (every contact), {type: list, listId}, {type: segment, segmentId} or {type: tag, tag}; targetNodeId (default: the first step after the trigger). Answers 202 with the run queued and estimatedCount (the audience's size now); batches of ${AUDIENCE_BATCH} contacts follow, moving processedCount, enrolledCount and skippedCount (contacts not active, unconfirmed under double opt-in, or already on their way). 404 'Sequence not found', 'List not found', 'Segment not found', 'Tag not found'; 400 when archived or targetNodeId is not a step`,
      params: SequencePath,
      body: StartAudienceEnrollmentCommand,
      response: view({ audienceEnrollment: AudienceEnrollmentView }),
      errors: [400, 404, 422],
      successStatus: 202,
      handle: async ({ input, actor }) => under("audienceEnrollment")(await uses.startAudienceEnrollment.execute(actor, input.params.sequenceId, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/sequences/:sequenceId/audience-enrollments",
      tag: TAG,
      scopes: ["sequences:read"],
      summary: "A sequence's audience enrollments, newest first; limit 1-100 (50) and cursor. 404 'Sequence not found'",
      params: SequencePath,
      query: ListAudienceEnrollmentsQuery,
      response: view({
        audienceEnrollments: t.readonlyArray(AudienceEnrollmentView),
        pagination: view({ limit: t.number, nextCursor: NullableString, hasMore: t.boolean }),
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.listAudienceEnrollments.execute(actor, input.params.sequenceId, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/sequences/:sequenceId/audience-enrollments/:runId",
      tag: TAG,
      scopes: ["sequences:read"],
      summary: "One audience enrollment and its counts; 404 'Audience enrollment not found'",
      params: AudienceEnrollmentPath,
      response: view({ audienceEnrollment: AudienceEnrollmentView }),
      errors: [404],
      handle: async ({ input, actor }) =>
        under("audienceEnrollment")(await uses.listAudienceEnrollments.get(actor, input.params.sequenceId, input.params.runId)),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/audience-enrollments/:runId/cancel",
      tag: TAG,
      scopes: ["sequences:write"],
      summary:
        "Cancel an audience enrollment: queued -> cancelled at once (completedAt and cancelRequestedAt set); running -> stays running with cancelRequestedAt set, and stops (cancelled) after the batch being enrolled; completed (or already ended) -> 400. Contacts already enrolled stay enrolled. 404 'Audience enrollment not found'",
      params: AudienceEnrollmentPath,
      response: view({ audienceEnrollment: AudienceEnrollmentView, message: t.string }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.cancelAudienceEnrollment.execute(actor, input.params.sequenceId, input.params.runId),
    }),
    defineRoute({
      method: "post",
      path: "/sequences/:sequenceId/test-runs",
      tag: TAG,
      scopes: ["sequences:write"],
      summary: `Test the sequence on one contact (subscriberId), draft or live, in the background: delays last 1/speedMultiplier of their time (${MIN_SPEED_MULTIPLIER}-${MAX_SPEED_MULTIPLIER}, default ${DEFAULT_SPEED_MULTIPLIER}); emails go as test sends (never in metrics, links not tracked) to recipientEmails (1-${MAX_TEST_RUN_RECIPIENTS} team addresses) or else to the contact; conditions and branches read the contact as it is; other actions (tags, lists, fields, webhooks) are logged, not applied; customVariables fill merge tags (customVariables.event fills {{event.x}}). The steps log records each node's outcome. 404 'Sequence not found', 'Subscriber not found'; 400 when archived`,
      params: SequencePath,
      body: StartTestRunCommand,
      response: view({ run: TestRunView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("run")(await uses.testRuns.execute(actor, input.params.sequenceId, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/sequences/:sequenceId/test-runs/:runId",
      tag: TAG,
      scopes: ["sequences:read"],
      summary: "One test run: its status and steps log; 404 'Test run not found'",
      params: TestRunPath,
      response: view({ run: TestRunView }),
      errors: [404],
      handle: async ({ input, actor }) => under("run")(await uses.testRuns.get(actor, input.params.sequenceId, input.params.runId)),
    }),
    defineRoute({
      method: "get",
      path: "/sequences/:sequenceId/simulate",
      tag: TAG,
      scopes: ["sequences:read"],
      summary: `What a contact (subscriberId or email) entering now would receive and when, without sending or changing anything: emails[] (rendered subject, sendAt) up to limit (1-${MAX_SIMULATED_EMAILS}, default 10), the path of nodes with what each would do, completesAt (null when the walk stopped at limit: truncated). Conditions and branches read the contact as it is now; actions on the way are not applied; waits for events are assumed to time out. 400 without exactly one of subscriberId and email; 404 'Sequence not found', 'Subscriber not found'`,
      params: SequencePath,
      query: SimulateSequenceQuery,
      response: view({
        sequenceId: Id,
        subscriberId: Id,
        email: t.string,
        startsAt: Timestamp,
        emails: t.readonlyArray(view({ nodeId: t.string, subject: t.string, sendAt: Timestamp })),
        path: t.readonlyArray(view({ nodeId: t.string, nodeType: t.string, at: Timestamp, outcome: t.string, message: t.string })),
        completesAt: t.union([Timestamp, t.null]),
        truncated: t.boolean,
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.simulate.execute(actor, input.params.sequenceId, input.query),
    }),
  ],
);
