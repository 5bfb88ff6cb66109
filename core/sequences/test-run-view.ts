import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, JsonObject, NullableString, NullableTimestamp, Timestamp, viewWithOptional } from "../shared/view-fields.js";
import { TEST_RUN_STATUSES, type TestRun } from "./test-run.js";

/** The spec's "Sequence test run" resource; `jobId` only in the creation response. */
export const TestRunView = viewWithOptional(
  {
    id: Id,
    automationId: Id,
    companyId: Id,
    subscriberId: NullableString,
    initiatedByUserId: NullableString,
    status: oneOf(TEST_RUN_STATUSES, "TestRunStatus"),
    recipientEmails: t.readonlyArray(t.string),
    speedMultiplier: t.number,
    steps: t.readonlyArray(JsonObject),
    errorMessage: NullableString,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    startedAt: NullableTimestamp,
    finishedAt: NullableTimestamp,
  },
  { jobId: t.string },
  "SequenceTestRun",
);
export type TestRunView = t.TypeOf<typeof TestRunView>;

export const toTestRunView = (run: TestRun, jobId?: string): TestRunView => ({
  id: run.id,
  automationId: run.sequenceId,
  companyId: run.companyId,
  subscriberId: run.subscriberId,
  initiatedByUserId: run.initiatedByUserId,
  status: run.status,
  recipientEmails: run.recipientEmails,
  speedMultiplier: run.speedMultiplier,
  steps: run.steps.map((step) => ({ ...step })),
  errorMessage: run.errorMessage,
  createdAt: run.createdAt.toISOString(),
  updatedAt: run.updatedAt.toISOString(),
  startedAt: run.startedAt?.toISOString() ?? null,
  finishedAt: run.finishedAt?.toISOString() ?? null,
  ...(jobId === undefined ? {} : { jobId }),
});
