import test from "ava";
import { CAMPAIGN_STATUSES, type CampaignStatus } from "../../../core/campaigns/model.js";
import { CAMPAIGN_MOVES, transition, type CampaignMove } from "../../../core/campaigns/transitions.js";

/** Every move from every state: the state it leads to, or "refused". */
const EXPECTED: Readonly<Record<CampaignMove, Readonly<Record<CampaignStatus, CampaignStatus | "refused">>>> = {
  edit: { draft: "draft", scheduled: "refused", sending: "refused", sent: "refused", paused: "refused", cancelled: "refused" },
  delete: { draft: "draft", scheduled: "refused", sending: "refused", sent: "sent", paused: "refused", cancelled: "cancelled" },
  schedule: { draft: "scheduled", scheduled: "scheduled", sending: "refused", sent: "refused", paused: "refused", cancelled: "refused" },
  unschedule: { draft: "refused", scheduled: "draft", sending: "refused", sent: "refused", paused: "refused", cancelled: "refused" },
  start: { draft: "refused", scheduled: "sending", sending: "refused", sent: "refused", paused: "refused", cancelled: "refused" },
  pause: { draft: "refused", scheduled: "refused", sending: "paused", sent: "refused", paused: "refused", cancelled: "refused" },
  resume: { draft: "refused", scheduled: "refused", sending: "refused", sent: "refused", paused: "sending", cancelled: "refused" },
  finish: { draft: "refused", scheduled: "refused", sending: "sent", sent: "refused", paused: "refused", cancelled: "refused" },
  cancel: { draft: "refused", scheduled: "cancelled", sending: "cancelled", sent: "refused", paused: "cancelled", cancelled: "refused" },
};

for (const move of CAMPAIGN_MOVES) {
  for (const status of CAMPAIGN_STATUSES) {
    const expected = EXPECTED[move][status];
    test(`${move} from ${status} -> ${expected}`, (t) => {
      const result = transition(status, move);
      if (expected !== "refused") {
        t.deepEqual(result, { _tag: "Right", right: expected });
        return;
      }
      if (result._tag === "Right") return t.fail(`${move} from ${status} was allowed`);
      t.is(result.left._tag, "InvalidState", "a refused move is a 400");
      t.is(result.left.code, "INVALID_CAMPAIGN_STATE");
      t.true(result.left.message.startsWith(`Campaign is ${status}: `), "the message names the current state");
      t.deepEqual(result.left.extra, { status });
    });
  }
}

test("cancelled is final: no move leads out of it", (t) => {
  const leaving = CAMPAIGN_MOVES.filter((move) => {
    const result = transition("cancelled", move);
    return result._tag === "Right" && result.right !== "cancelled";
  });
  t.deepEqual(leaving, []);
});
