import type { Provider } from "../../core/integrations/model.js";

/**
 * One webhook per provider, shaped like the provider's documented payloads: an order (or the
 * provider's own kind of event: a signup for Clerk, a product event for PostHog, a referral for
 * Affonso) for `email`, at `at`. `expect` is what it should become for the contact.
 */
export interface ProviderDelivery {
  readonly body: Record<string, unknown>;
  readonly event: string;
  readonly attribute: string;
  /** Extra headers the payload needs (a provider whose event ID is a signed header). */
  readonly eventId: string;
}

const iso = (at: Date) => at.toISOString();

export function providerDelivery(provider: Provider, email: string, at: Date, ref = "1001"): ProviderDelivery {
  switch (provider) {
    case "polar":
      return {
        eventId: `msg_polar_${ref}`,
        event: "ecommerce.order_placed",
        attribute: "polarCustomerId",
        body: {
          type: "order.paid",
          timestamp: iso(at),
          data: {
            id: `ord_${ref}`,
            created_at: iso(at),
            status: "paid",
            paid: true,
            billing_reason: "purchase",
            total_amount: 4900,
            currency: "usd",
            customer: { id: "cus_polar_1", email, name: "Ada Lovelace", external_id: null },
            product: { id: "prod_1", name: "Pro plan" },
          },
        },
      };
    case "paddle":
      return {
        eventId: `evt_01hv_${ref}`,
        event: "ecommerce.order_placed",
        attribute: "paddleCustomerId",
        body: {
          event_id: `evt_01hv_${ref}`,
          event_type: "transaction.completed",
          occurred_at: iso(at),
          notification_id: `ntf_${ref}`,
          data: {
            id: `txn_${ref}`,
            status: "completed",
            customer_id: "ctm_01paddle",
            currency_code: "USD",
            billed_at: iso(at),
            created_at: iso(at),
            items: [{ price: { id: "pri_1", product_id: "pro_1", description: "Pro monthly" }, quantity: 1 }],
            details: { totals: { subtotal: "4500", tax: "400", total: "4900", grand_total: "4900", currency_code: "USD" } },
          },
        },
      };
    case "dodo":
      return {
        eventId: `msg_dodo_${ref}`,
        event: "ecommerce.order_placed",
        attribute: "dodoCustomerId",
        body: {
          business_id: "bus_dodo_1",
          type: "payment.succeeded",
          timestamp: iso(at),
          data: {
            payload_type: "Payment",
            payment_id: `pay_${ref}`,
            status: "succeeded",
            total_amount: 4900,
            currency: "USD",
            created_at: iso(at),
            customer: { customer_id: "cus_dodo_1", email, name: "Ada Lovelace" },
            product_cart: [{ product_id: "pdt_1", quantity: 1 }],
          },
        },
      };
    case "whop":
      return {
        eventId: `evt_whop_${ref}`,
        event: "ecommerce.order_placed",
        attribute: "whopCustomerId",
        body: {
          id: `evt_whop_${ref}`,
          api_version: "v1",
          type: "payment.succeeded",
          timestamp: iso(at),
          data: {
            id: `pay_${ref}`,
            status: "paid",
            total: 49,
            subtotal: 49,
            currency: "usd",
            paid_at: iso(at),
            created_at: iso(at),
            user: { id: "user_whop_1", email, name: "Ada Lovelace", username: "ada" },
            product: { id: "prod_whop_1", title: "Pro community" },
          },
        },
      };
    case "creem":
      return {
        eventId: `evt_creem_${ref}`,
        event: "ecommerce.order_placed",
        attribute: "creemCustomerId",
        body: {
          id: `evt_creem_${ref}`,
          eventType: "checkout.completed",
          created_at: at.getTime(),
          object: {
            id: `ch_${ref}`,
            object: "checkout",
            status: "completed",
            order: { id: `ord_creem_${ref}`, amount: 4900, currency: "USD", status: "paid", type: "onetime", created_at: iso(at) },
            product: { id: "prod_creem_1", name: "Pro plan", price: 4900, currency: "USD", billing_type: "onetime" },
            customer: { id: "cust_creem_1", object: "customer", email, name: "Ada Lovelace" },
          },
        },
      };
    case "chargebee":
      return {
        eventId: `ev_cb_${ref}`,
        event: "ecommerce.order_placed",
        attribute: "chargebeeCustomerId",
        body: {
          id: `ev_cb_${ref}`,
          occurred_at: Math.floor(at.getTime() / 1000),
          source: "system",
          object: "event",
          api_version: "v2",
          event_type: "payment_succeeded",
          content: {
            customer: { id: "cb_cust_1", email, first_name: "Ada", last_name: "Lovelace" },
            invoice: { id: `inv_${ref}`, total: 4900, amount_paid: 4900, currency_code: "USD", paid_at: Math.floor(at.getTime() / 1000), status: "paid" },
            transaction: { id: `txn_cb_${ref}`, amount: 4900, currency_code: "USD" },
          },
        },
      };
    case "clerk":
      return {
        eventId: `msg_clerk_${ref}`,
        event: "saas.signup",
        attribute: "clerkUserId",
        body: {
          object: "event",
          type: "user.created",
          timestamp: at.getTime(),
          instance_id: "ins_1",
          data: {
            id: `user_${ref}`,
            object: "user",
            first_name: "Ada",
            last_name: "Lovelace",
            primary_email_address_id: "idn_2",
            email_addresses: [
              { id: "idn_1", email_address: `old-${email}` },
              { id: "idn_2", email_address: email },
            ],
            created_at: at.getTime(),
          },
        },
      };
    case "posthog":
      return {
        eventId: `0190a1b2-0000-7000-8000-00000000${ref.padStart(4, "0")}`,
        event: "report_exported",
        attribute: "posthogDistinctId",
        body: {
          event: {
            uuid: `0190a1b2-0000-7000-8000-00000000${ref.padStart(4, "0")}`,
            event: "report_exported",
            distinct_id: "distinct-ada",
            timestamp: iso(at),
            properties: { format: "csv", $current_url: "https://app.example.com/reports", $browser: "Firefox" },
          },
          person: { id: "person-1", properties: { email, name: "Ada Lovelace" } },
        },
      };
    case "affonso":
      return {
        eventId: `evt_aff_${ref}`,
        event: "affiliate.referral_created",
        attribute: "affonsoReferredBy",
        body: {
          id: `evt_aff_${ref}`,
          type: "referral.created",
          created_at: iso(at),
          data: { id: `ref_${ref}`, email, name: "Ada Lovelace", affiliate_id: "aff_42", status: "lead", created_at: iso(at) },
        },
      };
  }
}
