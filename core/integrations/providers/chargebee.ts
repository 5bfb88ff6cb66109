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
  str,
  subscriptionActivity,
  type Customer,
  type Json,
  type ProviderMapping,
} from "./payload.js";

const customerOf = (customer: Json | undefined): Customer => ({
  email: email(customer?.email),
  id: str(customer?.id),
  firstName: str(customer?.first_name),
  lastName: str(customer?.last_name),
});

/** A paid Chargebee invoice (webhook `payment_succeeded`, or a page of GET /api/v2/invoices). */
export function chargebeeInvoice(invoice: Json, customer: Customer, fallback: Date): MappedRecord {
  const id = str(invoice.id);
  if (!id || !customer.email) return skipped("the invoice names no customer email");
  const line = first(invoice.line_items) ?? {};
  return activities(
    orderActivity("chargebee", customer, {
      id,
      total: num(invoice.amount_paid) ?? num(invoice.total),
      currency: lowerCurrency(invoice.currency_code),
      productId: str(line.entity_id),
      productName: str(line.description),
      at: date(invoice.paid_at ?? invoice.date, fallback),
    }),
  );
}

/** Chargebee webhooks (id, event_type, occurred_at, content). */
export const chargebeeMapping: ProviderMapping = {
  identify: (body) => {
    const eventId = str(body.id);
    const eventType = str(body.event_type);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { receivedAt }) => {
    const content = obj(body.content);
    if (!content) return skipped("the payload has no content");
    const type = str(body.event_type);
    const at = date(body.occurred_at, receivedAt);
    const customer = customerOf(obj(content.customer));
    const subscription = (change: "started" | "cancelled"): MappedRecord => {
      const record = obj(content.subscription) ?? {};
      const id = str(record.id);
      if (!id || !customer.email) return skipped("the subscription names no customer email");
      const item = first(record.subscription_items) ?? {};
      return activities(
        subscriptionActivity(
          "chargebee",
          customer,
          {
            id,
            plan: str(item.item_price_id) ?? str(record.plan_id),
            status: str(record.status),
            amount: num(item.amount) ?? num(record.plan_amount),
            currency: lowerCurrency(record.currency_code),
            interval: str(record.billing_period_unit),
            at,
          },
          change,
        ),
      );
    };
    switch (type) {
      case "payment_succeeded": {
        const invoice = obj(content.invoice);
        if (invoice) return chargebeeInvoice(invoice, customer, at);
        const transaction = obj(content.transaction);
        return transaction ? chargebeeInvoice({ ...transaction, total: transaction.amount }, customer, at) : skipped("the payment has no invoice");
      }
      case "subscription_created":
      case "subscription_activated":
      case "subscription_started":
        return subscription("started");
      case "subscription_cancelled":
        return subscription("cancelled");
      case "payment_refunded": {
        const transaction = obj(content.transaction) ?? {};
        const id = str(transaction.id);
        if (!id || !customer.email) return skipped("the refund names no customer email");
        return activities(
          refundActivity("chargebee", customer, {
            id,
            orderId: str(first(transaction.linked_invoices)?.invoice_id),
            amount: num(transaction.amount),
            currency: lowerCurrency(transaction.currency_code),
            at,
          }),
        );
      }
      case "customer_created":
      case "customer_changed":
        return customer.email ? activities(customerActivity("chargebee", customer)) : skipped("the customer has no email");
      default:
        return skipped(`${type ?? "an untyped event"} is not mapped`);
    }
  },
};
