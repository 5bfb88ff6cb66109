import test from "ava";
import { BOUNCE_TYPES, EMAIL_TYPES, type BounceType, type DeliveryEventType, type EmailType, type SendKind } from "../../../core/delivery/model.js";
import { isRemovable, SUPPRESSION_REASONS, type SuppressionReason } from "../../../core/suppressions/model.js";
import { suppressionBlocks } from "../../../core/suppressions/suppression-blocks-send.js";
import { suppressionForDeliveryEvent } from "../../../core/suppressions/suppression-for-delivery-event.js";

/** Delivery event (and bounce type) -> the suppression it causes. */
const CAUSED: ReadonlyArray<readonly [DeliveryEventType, BounceType | undefined, SuppressionReason | null]> = [
  ["delivered", undefined, null],
  ["complained", undefined, "complaint"],
  ["bounced", "Permanent", "hard_bounce"],
  ["bounced", "Transient", null],
  ["bounced", "Undetermined", null],
  ["bounced", undefined, null],
];

test("the table covers every bounce type", (t) => {
  t.deepEqual(
    CAUSED.filter(([type, bounce]) => type === "bounced" && bounce)
      .map(([, bounce]) => bounce)
      .sort(),
    [...BOUNCE_TYPES].sort(),
  );
});

for (const [type, bounceType, expected] of CAUSED) {
  test(`${type}${bounceType ? ` (${bounceType})` : ""} -> ${expected ?? "no suppression"}`, (t) => {
    t.is(suppressionForDeliveryEvent({ type, bounceType }), expected);
  });
}

/** Suppression reason x kind of send -> whether the send is stopped; only an unsubscribe lets service mail through. */
const SENDS: ReadonlyArray<readonly [EmailType, SendKind | null]> = EMAIL_TYPES.flatMap((emailType): Array<readonly [EmailType, SendKind | null]> =>
  emailType === "transactional"
    ? [
        [emailType, "transactional"],
        [emailType, "marketing"],
        [emailType, null],
      ]
    : [[emailType, null]],
);

for (const reason of SUPPRESSION_REASONS) {
  for (const [emailType, sendKind] of SENDS) {
    const serviceMail = emailType === "transactional" && sendKind !== "marketing";
    const expected = !(reason === "unsubscribe" && serviceMail);
    test(`${reason} ${expected ? "stops" : "lets through"} a ${emailType} send${sendKind ? ` (${sendKind})` : ""}`, (t) => {
      t.is(suppressionBlocks(reason, { emailType, sendKind }), expected);
    });
  }
}

/** Suppression reason -> whether the company may lift it (DELETE /suppressions/{email}). */
const REMOVABLE: Readonly<Record<SuppressionReason, boolean>> = { hard_bounce: true, manual: true, complaint: false, unsubscribe: false };

for (const reason of SUPPRESSION_REASONS) {
  test(`${reason} ${REMOVABLE[reason] ? "can" : "cannot"} be lifted by the company`, (t) => {
    t.is(isRemovable(reason), REMOVABLE[reason]);
  });
}
