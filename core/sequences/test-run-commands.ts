import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { boundedText, Email, integerBetween, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { CustomAttributes } from "../subscribers/commands.js";
import { MAX_SPEED_MULTIPLIER, MIN_SPEED_MULTIPLIER } from "./test-run.js";

/** Team addresses one test run may send to. */
export const MAX_TEST_RUN_RECIPIENTS = 10;

/** POST /sequences/{sequenceId}/test-runs (compat-reference §10, decisions.md). */
export const StartTestRunCommand = t.exact(
  t.intersection([
    t.type({ subscriberId: boundedText(100) }),
    t.partial({
      speedMultiplier: optional(integerBetween(MIN_SPEED_MULTIPLIER, MAX_SPEED_MULTIPLIER)),
      customVariables: optional(CustomAttributes),
      recipientEmails: optional(boundedArray(Email, 1, MAX_TEST_RUN_RECIPIENTS)),
    }),
  ]),
  "StartTestRunCommand",
);
export type StartTestRunCommand = t.TypeOf<typeof StartTestRunCommand>;

export const TestRunPath = t.type({ sequenceId: TrimmedNonEmpty, runId: TrimmedNonEmpty }, "TestRunPath");
