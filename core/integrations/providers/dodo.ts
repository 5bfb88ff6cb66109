import { activities, skipped, type MappedRecord } from "../model.js";
import {
  date,
  email,
  first,
  header,
  lowerCurrency,
  num,
  obj,
  orderActivity,
  refundActivity,
  splitName,
  str,
  subscriptionActivity,
  type Customer,
  type Json,
  type ProviderMapping,
} from "./payload.js";

const customerOf = (data: Json): Customer => {
  const customer = obj(data.customer) ?? {};
  return { email: email(customer.email), id: str(customer.customer_id), ...splitName(customer.name) };
};

/** A succeeded Dodo payment (webhook `payment.succeeded`, or a page of GET /payments). */
export function dodoPayment(data: Json, fallback: Date): MappedRecord {
  const id = str(data.payment_id);
  const customer = customerOf(data);
  if (!id || !customer.email) return skipped("the payment names no customer email");
  if (data.status !== undefined && str(data.status) !== "succeeded") return skipped(`the payment is ${str(data.status) ?? "not succeeded"}`);
  const product = first(data.product_cart) ?? {};
  return activities(
    orderActivity("dodo", customer, {
      id,
      total: num(data.total_amount),
      currency: lowerCurrency(data.currency),
      productId: str(product.product_id),
      at: date(data.created_at, fallback),
    }),
  );
}

/** Dodo Payments webhooks (Standard Webhooks; the event ID is the signed webhook-id). */
export const dodoMapping: ProviderMapping = {
  identify: (body, headers) => {
    const eventId = header(headers, "webhook-id");
    const eventType = str(body.type);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { receivedAt }) => {
    const data = obj(body.data);
    if (!data) return skipped("the payload has no data");
    const type = str(body.type);
    const at = date(body.timestamp, receivedAt);
    const customer = customerOf(data);
    const subscription = (change: "started" | "cancelled"): MappedRecord => {
      const id = str(data.subscription_id);
      if (!id || !customer.email) return skipped("the subscription names no customer email");
      return activities(
        subscriptionActivity(
          "dodo",
          customer,
          {
            id,
            plan: str(data.product_id),
            status: str(data.status),
            amount: num(data.recurring_pre_tax_amount),
            currency: lowerCurrency(data.currency),
            interval: str(data.payment_frequency_interval)?.toLowerCase(),
            at,
          },
          change,
        ),
      );
    };
    switch (type) {
      case "payment.succeeded":
        return dodoPayment(data, at);
      case "subscription.active":
        return subscription("started");
      case "subscription.cancelled":
      case "subscription.expired":
        return subscription("cancelled");
      case "refund.succeeded": {
        const id = str(data.refund_id);
        if (!id || !customer.email) return skipped("the refund names no customer email");
        return activities(
          refundActivity("dodo", customer, { id, orderId: str(data.payment_id), amount: num(data.amount), currency: lowerCurrency(data.currency), at }),
        );
      }
      default:
        return skipped(`${type ?? "an untyped event"} is not mapped`);
    }
  },
};
