import { activities, skipped, type MappedRecord } from "../model.js";
import {
  customerActivity,
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
  type Customer,
  type Json,
  type ProviderMapping,
} from "./payload.js";

const customerOf = (data: Json): Customer => {
  const customer = obj(data.customer) ?? {};
  return { email: email(customer.email), id: str(customer.id) ?? str(data.customer_id), ...splitName(customer.name) };
};

/** A Polar order (webhook `order.paid` / `order.refunded`, or a page of GET /v1/orders/). */
export function polarOrder(data: Json, fallback: Date): MappedRecord {
  const customer = customerOf(data);
  const id = str(data.id);
  if (!id || !customer.email) return skipped("the order names no customer email");
  const product = obj(data.product) ?? {};
  return activities(
    orderActivity("polar", customer, {
      id,
      total: num(data.total_amount) ?? num(data.amount),
      currency: lowerCurrency(data.currency),
      productId: str(product.id) ?? str(data.product_id),
      productName: str(product.name),
      at: date(data.created_at, fallback),
    }),
  );
}

/** Polar webhooks (Standard Webhooks; the event ID is the signed webhook-id). */
export const polarMapping: ProviderMapping = {
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
    const subscription = () => {
      const id = str(data.id);
      if (!id || !customer.email) return null;
      const product = obj(data.product) ?? {};
      return {
        id,
        plan: str(product.name),
        status: str(data.status),
        amount: num(data.amount),
        currency: lowerCurrency(data.currency),
        interval: str(data.recurring_interval),
        at,
      };
    };
    switch (type) {
      case "order.paid":
        return polarOrder(data, at);
      case "subscription.created":
      case "subscription.active": {
        const s = subscription();
        return s ? activities(subscriptionActivity("polar", customer, s, "started")) : skipped("the subscription names no customer email");
      }
      case "subscription.canceled":
      case "subscription.revoked": {
        const s = subscription();
        return s ? activities(subscriptionActivity("polar", customer, s, "cancelled")) : skipped("the subscription names no customer email");
      }
      case "order.refunded": {
        const id = str(data.id);
        if (!id || !customer.email) return skipped("the order names no customer email");
        return activities(
          refundActivity("polar", customer, { id, orderId: id, amount: num(data.refunded_amount), currency: lowerCurrency(data.currency), at }),
        );
      }
      case "customer.created":
      case "customer.updated": {
        const person: Customer = { email: email(data.email), id: str(data.id), ...splitName(data.name) };
        return person.email ? activities(customerActivity("polar", person)) : skipped("the customer has no email");
      }
      default:
        return skipped(`${type ?? "an untyped event"} is not mapped`);
    }
  },
};
