import test from "ava";
import { DELIVERY_EVENT_TYPES, SEND_STATUSES, type DeliveryEventType, type SendStatus } from "../../../core/delivery/model.js";
import { statusChangesOn, statusOnDeliveryEvent } from "../../../core/email-sends/status-on-delivery-event.js";

/** Every stored status against every delivery event; `-` keeps the send as it is. */
const TABLE: Record<SendStatus, Record<DeliveryEventType, SendStatus | "-">> = {
  pending: { delivered: "delivered", bounced: "bounced", complained: "complained", delayed: "-" },
  sent: { delivered: "delivered", bounced: "bounced", complained: "complained", delayed: "-" },
  delivered: { delivered: "-", bounced: "bounced", complained: "complained", delayed: "-" },
  bounced: { delivered: "-", bounced: "bounced", complained: "complained", delayed: "-" },
  complained: { delivered: "-", bounced: "-", complained: "complained", delayed: "-" },
  failed: { delivered: "-", bounced: "bounced", complained: "complained", delayed: "-" },
  suppressed: { delivered: "-", bounced: "bounced", complained: "complained", delayed: "-" },
};

test("the table covers every stored status", (t) => {
  t.deepEqual(Object.keys(TABLE).sort(), [...SEND_STATUSES].sort());
});

for (const current of SEND_STATUSES) {
  for (const event of DELIVERY_EVENT_TYPES) {
    const expected = TABLE[current][event];
    test(`${current} + ${event} -> ${expected}`, (t) => {
      t.is(statusOnDeliveryEvent(current, event), expected === "-" ? null : expected);
    });
  }
}

test("the changes an UPDATE applies are the table's, pair by pair", (t) => {
  for (const event of DELIVERY_EVENT_TYPES) {
    const expected = SEND_STATUSES.flatMap((current) => (TABLE[current][event] === "-" ? [] : [[current, TABLE[current][event]]]));
    t.deepEqual(statusChangesOn(event), expected, event);
  }
});
