import test from "ava";
import type { SendStatus } from "../../../core/delivery/model.js";
import { emailSendStatus, statusesMatching, type EmailSendStatus } from "../../../core/email-sends/status.js";

const at = new Date("2026-11-22T10:00:00.000Z");

// [stored status, opened, clicked, shown status]
const table: Array<[SendStatus, boolean, boolean, EmailSendStatus]> = [
  ["pending", false, false, "pending"],
  ["sent", false, false, "sent"],
  ["sent", true, false, "opened"],
  ["delivered", false, false, "delivered"],
  ["delivered", true, false, "opened"],
  ["delivered", true, true, "clicked"],
  ["delivered", false, true, "clicked"],
  // Delivery problems win over engagement (a scanner may open a message that later bounces).
  ["bounced", true, true, "bounced"],
  ["complained", true, false, "complained"],
  ["failed", false, false, "failed"],
  ["suppressed", false, false, "suppressed"],
];

for (const [status, opened, clicked, shown] of table) {
  test(`a ${status} send${opened ? ", opened" : ""}${clicked ? ", clicked" : ""} shows as ${shown}`, (t) => {
    t.is(emailSendStatus({ status, openedAt: opened ? at : null, clickedAt: clicked ? at : null }), shown);
  });
}

test("the opened filter matches clicked sends too; every other filter only itself", (t) => {
  t.deepEqual(statusesMatching("opened"), ["opened", "clicked"]);
  t.deepEqual(statusesMatching("clicked"), ["clicked"]);
  t.deepEqual(statusesMatching("delivered"), ["delivered"]);
});
