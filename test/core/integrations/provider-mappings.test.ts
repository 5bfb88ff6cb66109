import test from "ava";
import type { MappedRecord } from "../../../core/integrations/model.js";
import { PROVIDER_MAPPINGS } from "../../../core/integrations/providers/index.js";
import { admitsEvent } from "../../../core/integrations/providers/posthog.js";

const AT = new Date("2026-11-22T10:00:00.000Z");
const context = { eventId: "evt_1", settings: { listIds: null }, receivedAt: AT };

/** The events and attributes of a mapped record, for comparison. */
function summary(record: MappedRecord) {
  if (record.kind === "skipped") return { skipped: record.reason };
  return record.activities.map((activity) => ({
    email: activity.email,
    attributes: activity.attributes,
    events: activity.events.map((event) => ({ name: event.name, eventId: event.eventId, properties: event.properties })),
  }));
}

test("polar subscriptions start and cancel, with the plan and status as attributes", (t) => {
  const data = {
    id: "sub_1",
    status: "active",
    amount: 1900,
    currency: "usd",
    recurring_interval: "month",
    customer: { id: "cus_1", email: "Ada@Example.com", name: "Ada Lovelace" },
    product: { id: "prod_1", name: "Pro" },
  };
  t.deepEqual(summary(PROVIDER_MAPPINGS.polar.map({ type: "subscription.active", data }, context)), [
    {
      email: "ada@example.com",
      attributes: { polarCustomerId: "cus_1", polarPlan: "Pro", polarSubscriptionStatus: "active" },
      events: [
        {
          name: "saas.subscription_started",
          eventId: "polar:subscription:sub_1:started",
          properties: { subscriptionId: "sub_1", plan: "Pro", status: "active", amount: 1900, currency: "usd", interval: "month", provider: "polar" },
        },
      ],
    },
  ]);
  const cancelled = summary(PROVIDER_MAPPINGS.polar.map({ type: "subscription.canceled", data: { ...data, status: "canceled" } }, context));
  t.like((cancelled as Array<{ events: unknown[] }>)[0]!.events[0], { name: "saas.subscription_cancelled", eventId: "polar:subscription:sub_1:cancelled" });
});

test("refunds of Chargebee, Creem and Dodo become saas.refund_issued; unmapped and incomplete payloads are skipped with a reason", (t) => {
  const chargebee = PROVIDER_MAPPINGS.chargebee.map(
    {
      id: "ev_1",
      event_type: "payment_refunded",
      occurred_at: 1795000000,
      content: {
        customer: { id: "c1", email: "bob@example.com" },
        transaction: { id: "txn_r1", amount: 500, currency_code: "EUR", linked_invoices: [{ invoice_id: "inv_9" }] },
      },
    },
    context,
  );
  t.like((summary(chargebee) as Array<{ events: unknown[] }>)[0]!.events[0], {
    name: "saas.refund_issued",
    properties: { refundId: "txn_r1", orderId: "inv_9", amount: 500, currency: "eur", provider: "chargebee" },
  });
  const creem = PROVIDER_MAPPINGS.creem.map(
    {
      id: "evt_2",
      eventType: "refund.created",
      created_at: AT.getTime(),
      object: { id: "ref_1", refund_amount: 900, refund_currency: "USD", customer: { id: "cu", email: "cy@example.com" } },
    },
    context,
  );
  t.like((summary(creem) as Array<{ events: unknown[] }>)[0]!.events[0], { name: "saas.refund_issued", eventId: "creem:refund:ref_1" });
  const dodo = PROVIDER_MAPPINGS.dodo.map(
    {
      type: "refund.succeeded",
      data: { refund_id: "rfn_1", payment_id: "pay_1", amount: 100, currency: "USD", customer: { customer_id: "c", email: "d@example.com" } },
    },
    context,
  );
  t.like((summary(dodo) as Array<{ events: unknown[] }>)[0]!.events[0], { name: "saas.refund_issued", properties: { orderId: "pay_1" } });

  t.deepEqual(summary(PROVIDER_MAPPINGS.paddle.map({ event_type: "address.created", data: {} }, context)), { skipped: "address.created is not mapped" });
  t.deepEqual(summary(PROVIDER_MAPPINGS.whop.map({ type: "payment.succeeded", data: { id: "pay_1", user: { id: "u" } } }, context)), {
    skipped: "the payment names no customer email",
  });
  t.deepEqual(summary(PROVIDER_MAPPINGS.clerk.map({ type: "session.created", data: { user_id: "u" } }, context)), { skipped: "session.created is not mapped" });
});

test("paddle names customers by ID only: the activity asks for a lookup", (t) => {
  const mapped = PROVIDER_MAPPINGS.paddle.map(
    {
      event_id: "evt_1",
      event_type: "subscription.canceled",
      data: { id: "sub_9", customer_id: "ctm_1", status: "canceled", items: [{ price: { name: "Team" } }] },
    },
    context,
  );
  t.is(mapped.kind, "activities");
  if (mapped.kind !== "activities") return;
  t.like(mapped.activities[0], { email: null, providerCustomerId: "ctm_1", attributes: { paddleCustomerId: "ctm_1", paddlePlan: "Team" } });
});

test("posthog settings: every non-internal event by default; with syncAllEvents false only the allowlist; $ events only when allow-listed", (t) => {
  t.true(admitsEvent({ listIds: null }, "signed_up"));
  t.false(admitsEvent({ listIds: null }, "$pageview"));
  t.true(admitsEvent({ listIds: null, eventAllowlist: ["$pageview"] }, "$pageview"));
  t.false(admitsEvent({ listIds: null, syncAllEvents: false, eventAllowlist: ["a"] }, "b"));
  t.true(admitsEvent({ listIds: null, syncAllEvents: false, eventAllowlist: ["a"] }, "a"));
});
