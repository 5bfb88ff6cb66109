import { activities, skipped, type MappedRecord } from "../model.js";
import {
  date,
  email,
  header,
  lowerCurrency,
  num,
  obj,
  orderActivity,
  refundActivity,
  splitName,
  str,
  subscriptionActivity,
  toMinor,
  type Customer,
  type Json,
  type ProviderMapping,
} from "./payload.js";

const customerOf = (data: Json): Customer => {
  const user = obj(data.user) ?? obj(obj(data.member)?.user) ?? {};
  return { email: email(user.email), id: str(user.id), ...splitName(user.name) };
};

/** A paid Whop payment (webhook `payment.succeeded`, or a page of GET /api/v1/payments); Whop's amounts are in major units. */
export function whopPayment(data: Json, fallback: Date): MappedRecord {
  const id = str(data.id);
  const customer = customerOf(data);
  if (!id || !customer.email) return skipped("the payment names no customer email");
  const status = str(data.status);
  if (status !== undefined && status !== "paid" && status !== "succeeded") return skipped(`the payment is ${status}`);
  const product = obj(data.product) ?? {};
  return activities(
    orderActivity("whop", customer, {
      id,
      total: toMinor(num(data.total) ?? num(data.subtotal)),
      currency: lowerCurrency(data.currency),
      productId: str(product.id),
      productName: str(product.title) ?? str(product.name),
      at: date(data.paid_at ?? data.created_at, fallback),
    }),
  );
}

/** Whop webhooks (Standard Webhooks; the body's `id` is the event ID, else the signed webhook-id). */
export const whopMapping: ProviderMapping = {
  identify: (body, headers) => {
    const eventId = str(body.id) ?? header(headers, "webhook-id");
    const eventType = str(body.type);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { receivedAt }) => {
    const data = obj(body.data);
    if (!data) return skipped("the payload has no data");
    const type = str(body.type);
    const at = date(body.timestamp, receivedAt);
    const customer = customerOf(data);
    const membership = (change: "started" | "cancelled"): MappedRecord => {
      const id = str(data.id);
      if (!id || !customer.email) return skipped("the membership names no user email");
      const product = obj(data.product) ?? {};
      return activities(subscriptionActivity("whop", customer, { id, plan: str(product.title) ?? str(product.id), status: str(data.status), at }, change));
    };
    switch (type) {
      case "payment.succeeded":
        return whopPayment(data, at);
      case "membership.activated":
      case "membership.went_valid":
        return membership("started");
      case "membership.deactivated":
      case "membership.went_invalid":
        return membership("cancelled");
      case "refund.created": {
        const payment = obj(data.payment) ?? {};
        const payer = customer.email ? customer : customerOf(payment);
        const id = str(data.id);
        if (!id || !payer.email) return skipped("the refund names no user email");
        return activities(
          refundActivity("whop", payer, {
            id,
            orderId: str(payment.id),
            amount: toMinor(num(data.amount)),
            currency: lowerCurrency(data.currency ?? payment.currency),
            at,
          }),
        );
      }
      default:
        return skipped(`${type ?? "an untyped event"} is not mapped`);
    }
  },
};
