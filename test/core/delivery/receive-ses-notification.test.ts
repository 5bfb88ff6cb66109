import test from "ava";
import { left, right } from "fp-ts/lib/Either.js";
import { ManualClock } from "../../../adapters/memory/manual-clock.js";
import type { DeliveryEvent } from "../../../core/delivery/model.js";
import type { SesTopicPins, SnsMessage, SnsSubscriptions, SnsVerifier } from "../../../core/delivery/ports.js";
import { ReceiveSesNotification } from "../../../core/delivery/receive-ses-notification.js";
import type { RecordDeliveryEvent, SendReference } from "../../../core/delivery/record-delivery-event.js";
import { notFound } from "../../../core/shared/errors.js";
import { ok } from "../../../core/shared/result.js";

const TOPIC = "arn:aws:sns:us-east-1:123456789012:ses-events";
const COMPANY = "co_1";

const bounce = JSON.stringify({
  notificationType: "Bounce",
  mail: { messageId: "ses-id", headers: [{ name: "Message-ID", value: "<m1@example.com>" }] },
  bounce: { bounceType: "Permanent", bounceSubType: "General", timestamp: "2026-11-22T10:00:00.000Z" },
});

function setup(options: { signed?: boolean; companies?: string[]; pinned?: string } = {}) {
  const recorded: Array<{ reference: SendReference; event: DeliveryEvent }> = [];
  const visited: string[] = [];
  let pin = options.pinned ?? null;
  const verifier: SnsVerifier = { verify: async (body) => ((options.signed ?? true) ? right(body as unknown as SnsMessage) : left("Invalid Signature")) };
  const subscriptions: SnsSubscriptions = { confirm: async (url) => (visited.push(url), true) };
  const pins: SesTopicPins = { pinIfNone: async (_company, topic) => (pin ??= topic), unpin: async () => pin };
  // The recorder's own behaviour is covered with the database in test/hosts/http/delivery.test.ts.
  const recorder = {
    companyExists: async (companyId: string) =>
      (options.companies ?? [COMPANY]).includes(companyId) ? ok(true as const) : left(notFound("Company not found")),
    execute: async (_companyId: string, reference: SendReference, event: DeliveryEvent) => (
      recorded.push({ reference, event }),
      ok({ emailSendId: "es_1", stored: true })
    ),
  } as unknown as RecordDeliveryEvent;
  const receive = new ReceiveSesNotification(verifier, subscriptions, pins, recorder, new ManualClock());
  const post = (message: Partial<SnsMessage>, companyId = COMPANY) =>
    receive.execute(companyId, JSON.stringify({ MessageId: "sns-1", TopicArn: TOPIC, Message: "", ...message }));
  return { receive, post, recorded, visited, pin: () => pin };
}

test("a body that is not JSON is a bad request", async (t) => {
  const { receive } = setup();
  t.like(await receive.execute(COMPANY, "not json"), { _tag: "Left", left: { _tag: "BadRequest", message: "Body must be an SNS message" } });
});

test("a message whose signature fails is refused before anything else is looked at", async (t) => {
  const { post, recorded } = setup({ signed: false, companies: [] });
  t.like(await post({ Type: "Notification", Message: bounce }), { _tag: "Left", left: { _tag: "Unauthorized", message: "Invalid signature" } });
  t.is(recorded.length, 0);
});

test("an unknown company is not found", async (t) => {
  const { post, pin } = setup({ companies: [] });
  t.like(await post({ Type: "Notification", Message: bounce }), { _tag: "Left", left: { _tag: "NotFound" } });
  t.is(pin(), null, "nothing is pinned for a company that does not exist");
});

test("the first topic is pinned; another topic is refused", async (t) => {
  const { post, pin, recorded } = setup();
  t.like(await post({ Type: "Notification", Message: bounce }), { _tag: "Right", right: { kind: "recorded" } });
  t.is(pin(), TOPIC);
  const other = await post({ Type: "Notification", Message: bounce, TopicArn: "arn:aws:sns:eu-west-1:999999999999:other" });
  t.like(other, { _tag: "Left", left: { _tag: "Forbidden" } });
  t.is(recorded.length, 1);
});

test("a subscription is confirmed only through an Amazon URL", async (t) => {
  const { post, visited } = setup();
  const amazon = "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t";
  t.deepEqual(await post({ Type: "SubscriptionConfirmation", SubscribeURL: amazon }), right({ kind: "subscriptionConfirmed", confirmed: true }));
  for (const url of ["http://sns.us-east-1.amazonaws.com/", "https://evil.example.com/", "https://sns.us-east-1.amazonaws.com:8443/", undefined]) {
    t.like(
      await post({ Type: "SubscriptionConfirmation", SubscribeURL: url }),
      { _tag: "Left", left: { _tag: "BadRequest", message: "SubscribeURL is not an Amazon URL" } },
      String(url),
    );
  }
  t.deepEqual(visited, [amazon]);
});

test("messages with nothing to record are ignored", async (t) => {
  const { post, recorded } = setup();
  t.deepEqual(await post({ Type: "UnsubscribeConfirmation" }), right({ kind: "ignored" }));
  t.deepEqual(await post({ Type: "Notification", Message: JSON.stringify({ eventType: "Open", mail: { messageId: "ses-id" } }) }), right({ kind: "ignored" }));
  t.deepEqual(await post({ Type: "Notification", Message: "not json" }), right({ kind: "ignored" }));
  t.is(recorded.length, 0);
});

test("a bounce is recorded against the send its Message-ID names, once per SNS message ID", async (t) => {
  const { post, recorded } = setup();
  t.deepEqual(await post({ Type: "Notification", Message: bounce }), right({ kind: "recorded", emailSendId: "es_1", stored: true }));
  t.deepEqual(recorded[0]?.reference, { messageIds: ["<m1@example.com>", "ses-id"] });
  t.like(recorded[0]?.event, { type: "bounced", providerEventId: "ses:sns-1", bounceType: "Permanent" });
});
