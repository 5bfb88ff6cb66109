import { activities, skipped, type MappedRecord } from "../model.js";
import {
  customerActivity,
  date,
  email,
  first,
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

/** Paddle names the customer by ID only: the email is looked up through its API when the contact is resolved. */
const customerOf = (data: Json): Customer => ({ email: undefined, id: str(data.customer_id) });

/** A completed Paddle transaction (webhook `transaction.completed`, or a page of GET /transactions). */
export function paddleTransaction(data: Json, fallback: Date): MappedRecord {
  const id = str(data.id);
  const customer = customerOf(data);
  if (!id || !customer.id) return skipped("the transaction names no customer");
  const totals = obj(obj(data.details)?.totals) ?? {};
  const item = first(data.items) ?? {};
  const price = obj(item.price) ?? {};
  const product = obj(item.product) ?? {};
  return activities(
    orderActivity("paddle", customer, {
      id,
      total: num(totals.grand_total) ?? num(totals.total),
      currency: lowerCurrency(data.currency_code),
      productId: str(price.product_id) ?? str(product.id),
      productName: str(product.name) ?? str(price.description),
      at: date(data.billed_at ?? data.created_at, fallback),
    }),
  );
}

/** Paddle Billing notifications (event_id, event_type, occurred_at, data). */
export const paddleMapping: ProviderMapping = {
  identify: (body) => {
    const eventId = str(body.event_id);
    const eventType = str(body.event_type);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { receivedAt }) => {
    const data = obj(body.data);
    if (!data) return skipped("the payload has no data");
    const type = str(body.event_type);
    const at = date(body.occurred_at, receivedAt);
    const subscription = (change: "started" | "cancelled"): MappedRecord => {
      const id = str(data.id);
      const customer = customerOf(data);
      if (!id || !customer.id) return skipped("the subscription names no customer");
      const price = obj(first(data.items)?.price) ?? {};
      const cycle = obj(data.billing_cycle) ?? {};
      return activities(
        subscriptionActivity(
          "paddle",
          customer,
          {
            id,
            plan: str(price.name) ?? str(price.description),
            status: str(data.status),
            amount: num(obj(price.unit_price)?.amount),
            currency: lowerCurrency(data.currency_code),
            interval: str(cycle.interval),
            at,
          },
          change,
        ),
      );
    };
    switch (type) {
      case "transaction.completed":
        return paddleTransaction(data, at);
      case "subscription.created":
      case "subscription.activated":
        return subscription("started");
      case "subscription.canceled":
        return subscription("cancelled");
      case "adjustment.created": {
        const id = str(data.id);
        const customer = customerOf(data);
        if (str(data.action) !== "refund") return skipped("only refund adjustments are mapped");
        if (!id || !customer.id) return skipped("the adjustment names no customer");
        const totals = obj(data.totals) ?? {};
        return activities(
          refundActivity("paddle", customer, {
            id,
            orderId: str(data.transaction_id),
            amount: num(totals.total),
            currency: lowerCurrency(data.currency_code),
            at,
          }),
        );
      }
      case "customer.created":
      case "customer.updated": {
        const customer: Customer = { email: email(data.email), id: str(data.id), ...splitName(data.name) };
        return customer.email ? activities(customerActivity("paddle", customer)) : skipped("the customer has no email");
      }
      default:
        return skipped(`${type ?? "an untyped event"} is not mapped`);
    }
  },
};
