import test from "ava";
import {
  ALREADY_ACCEPTED,
  ALREADY_CANCELLED,
  CANCELLED_LINK,
  EXPIRED,
  INVITATION_TTL_MS,
  statusAt,
  transition,
  type Invitation,
  type InvitationEvent,
  type InvitationStatus,
} from "../../../core/team/model.js";

const CREATED = new Date("2026-11-22T10:00:00.000Z");
const NOW = new Date("2026-11-23T10:00:00.000Z");
const LATER = new Date(CREATED.getTime() + INVITATION_TTL_MS);

/** An invitation that reads as `status` at NOW (an expired one is a pending one past its expiry). */
const invitation = (status: InvitationStatus): Invitation => ({
  id: "inv_1",
  companyId: "co_1",
  email: "ann@example.com",
  role: "marketer",
  status: status === "expired" ? "pending" : status,
  tokenHash: "a".repeat(64),
  invitedByMemberId: "mem_owner",
  expiresAt: status === "expired" ? new Date(NOW.getTime() - 1) : LATER,
  createdAt: CREATED,
  updatedAt: CREATED,
  acceptedAt: status === "accepted" ? CREATED : null,
  cancelledAt: status === "cancelled" ? CREATED : null,
  acceptedMemberId: status === "accepted" ? "mem_ann" : null,
  apiKeyId: status === "accepted" ? "key_ann" : null,
});

/** The spec's table (cancel), and the acceptance decisions.md adds: state, event, the next state or the 400's message. */
const TABLE: ReadonlyArray<[InvitationStatus, InvitationEvent, { readonly next: InvitationStatus } | { readonly error: string }]> = [
  ["pending", { type: "cancel" }, { next: "cancelled" }],
  ["expired", { type: "cancel" }, { next: "cancelled" }],
  ["accepted", { type: "cancel" }, { error: ALREADY_ACCEPTED }],
  ["cancelled", { type: "cancel" }, { error: ALREADY_CANCELLED }],
  ["pending", { type: "accept", memberId: "mem_new" }, { next: "accepted" }],
  ["expired", { type: "accept", memberId: "mem_new" }, { error: EXPIRED }],
  ["accepted", { type: "accept", memberId: "mem_new" }, { error: ALREADY_ACCEPTED }],
  ["cancelled", { type: "accept", memberId: "mem_new" }, { error: CANCELLED_LINK }],
];

for (const [status, event, expected] of TABLE) {
  test(`invitation: ${event.type} when ${status}`, (t) => {
    const before = invitation(status);
    t.is(statusAt(before, NOW), status);
    const result = transition(before, event, NOW);
    if ("error" in expected) {
      t.like(result, { _tag: "Left", left: { _tag: "InvalidState", message: expected.error } });
      return;
    }
    t.is(result._tag, "Right");
    if (result._tag !== "Right") return;
    t.is(statusAt(result.right, NOW), expected.next);
    t.deepEqual(result.right.updatedAt, NOW);
    if (event.type === "cancel") t.deepEqual(result.right.cancelledAt, NOW);
    else t.like(result.right, { acceptedAt: NOW, acceptedMemberId: "mem_new" });
  });
}

test("invitation: expires exactly 7 days after it was made, and reads as expired from then on", (t) => {
  const pending = { ...invitation("pending"), expiresAt: LATER };
  t.is(statusAt(pending, new Date(LATER.getTime() - 1)), "pending");
  t.is(statusAt(pending, LATER), "expired");
  t.like(transition(pending, { type: "accept", memberId: "mem_x" }, LATER), { _tag: "Left", left: { message: EXPIRED } });
});
