import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { Email, TrimmedNonEmpty } from "../shared/codecs.js";

/** Recipients of one test of an email step (compat-reference §10). */
export const MAX_NODE_TEST_RECIPIENTS = 10;

export const SequenceNodePath = t.type({ sequenceId: TrimmedNonEmpty, nodeId: TrimmedNonEmpty }, "SequenceNodePath");

/** POST /sequences/{sequenceId}/nodes/{nodeId}/test. */
export const NodeTestCommand = t.exact(t.type({ recipients: boundedArray(Email, 1, MAX_NODE_TEST_RECIPIENTS) }), "NodeTestCommand");
export type NodeTestCommand = t.TypeOf<typeof NodeTestCommand>;
