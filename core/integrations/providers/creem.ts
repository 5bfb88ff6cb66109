import { activities, skipped, type MappedRecord } from "../model.js";
import {
  date,
  email,
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

const customerOf = (object: Json): Customer => {
  const customer = obj(object.customer) ?? {};
  return {
    email: email(customer.email),
    id: str(customer.id) ?? (typeof object.customer === "string" ? object.customer : undefined),
    ...splitName(customer.name),
  };
};

/** A paid Creem order: the `order` of a completed checkout, or a transaction of GET /v1/transactions/search. */
export function creemOrder(order: Json, customer: Customer, product: Json, fallback: Date): MappedRecord {
  const id = str(order.id);
  if (!id || !customer.email) return skipped("the order names no customer email");
  return activities(
    orderActivity("creem", customer, {
      id,
      total: num(order.amount_paid) ?? num(order.amount),
      currency: lowerCurrency(order.currency),
      productId: str(product.id) ?? str(order.product),
      productName: str(product.name),
      at: date(order.created_at, fallback),
    }),
  );
}

/** Creem webhooks (id, eventType, created_at, object). */
export const creemMapping: ProviderMapping = {
  identify: (body) => {
    const eventId = str(body.id);
    const eventType = str(body.eventType);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { receivedAt }) => {
    const object = obj(body.object);
    if (!object) return skipped("the payload has no object");
    const type = str(body.eventType);
    const at = date(body.created_at, receivedAt);
    const customer = customerOf(object);
    const product = obj(object.product) ?? {};
    const subscription = (change: "started" | "cancelled"): MappedRecord => {
      const id = str(object.id);
      if (!id || !customer.email) return skipped("the subscription names no customer email");
      return activities(
        subscriptionActivity(
          "creem",
          customer,
          {
            id,
            plan: str(product.name),
            status: str(object.status),
            amount: num(product.price),
            currency: lowerCurrency(product.currency),
            interval: str(product.billing_period),
            at,
          },
          change,
        ),
      );
    };
    switch (type) {
      case "checkout.completed": {
        const order = obj(object.order);
        return order ? creemOrder(order, customer, product, at) : skipped("the checkout has no order");
      }
      case "subscription.active":
      case "subscription.trialing":
        return subscription("started");
      case "subscription.canceled":
      case "subscription.expired":
        return subscription("cancelled");
      case "refund.created": {
        const id = str(object.id);
        if (!id || !customer.email) return skipped("the refund names no customer email");
        return activities(
          refundActivity("creem", customer, {
            id,
            orderId: str(obj(object.order)?.id),
            amount: num(object.refund_amount),
            currency: lowerCurrency(object.refund_currency),
            at,
          }),
        );
      }
      default:
        return skipped(`${type ?? "an untyped event"} is not mapped`);
    }
  },
};
