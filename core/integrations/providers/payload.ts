import type { AttributeValue } from "../../subscribers/model.js";
import type { WebhookHeaders } from "../ports.js";
import { INTEGRATION_EVENTS, type ContactActivity, type IntegrationSettings, type MappedRecord, type Provider } from "../model.js";

/**
 * Readers of provider payloads: every field is optional and of any type until read here, so a
 * payload of an unexpected shape maps to "skipped" (with the reason) instead of throwing.
 */
export type Json = Record<string, unknown>;

export const obj = (value: unknown): Json | undefined => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined);

export const str = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : typeof value === "number" ? String(value) : undefined;

export const num = (value: unknown): number | undefined => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

export const first = (value: unknown): Json | undefined => (Array.isArray(value) ? obj(value[0]) : undefined);

/** An email as contacts store it, or undefined when the value is not one. */
export const email = (value: unknown): string | undefined => {
  const text = str(value)?.toLowerCase();
  return text && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? text : undefined;
};

/** ISO text, Unix seconds or Unix milliseconds; `fallback` when absent or unreadable. */
export function date(value: unknown, fallback: Date): Date {
  if (typeof value === "number" && Number.isFinite(value)) return new Date(value < 1e11 ? value * 1000 : value);
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = /^\d+$/.test(value.trim()) ? date(Number(value), fallback) : new Date(value);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return fallback;
}

/** Major units (dollars) to minor units (cents), as every recorded amount is. */
export const toMinor = (major: number | undefined): number | undefined => (major === undefined ? undefined : Math.round(major * 100));

export const lowerCurrency = (value: unknown): string | undefined => str(value)?.toLowerCase();

/** A full name split at its first space, for providers that send one field. */
export function splitName(full: unknown): { firstName?: string; lastName?: string } {
  const text = str(full);
  if (!text) return {};
  const [firstName, ...rest] = text.split(/\s+/);
  return rest.length > 0 ? { firstName: firstName!, lastName: rest.join(" ") } : { firstName: firstName! };
}

export const header = (headers: WebhookHeaders, name: string): string | undefined => str(headers[name]);

/** Properties without absent values. */
export const compact = (properties: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== undefined && value !== null));

const attributes = (values: Record<string, AttributeValue | undefined>): Record<string, AttributeValue> => compact(values) as Record<string, AttributeValue>;

/** The event ID and type of a delivery, or null when the payload names none. */
export interface Identified {
  readonly eventId: string;
  readonly eventType: string;
}

export interface MappingContext {
  readonly eventId: string;
  readonly settings: IntegrationSettings;
  /** When the delivery arrived: the time of records that carry none. */
  readonly receivedAt: Date;
}

/** How one provider's webhooks (and sync records) become contacts' attributes and events. */
export interface ProviderMapping {
  identify(body: Json, headers: WebhookHeaders): Identified | null;
  map(body: Json, context: MappingContext): MappedRecord;
}

/** The person a payment provider's record is about. */
export interface Customer {
  readonly email: string | undefined;
  /** The provider's customer ID (Paddle's webhooks name only this one). */
  readonly id: string | undefined;
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
}

const person = (provider: Provider, customer: Customer, extra: Record<string, AttributeValue | undefined>): Omit<ContactActivity, "events"> => ({
  email: customer.email ?? null,
  ...(customer.email === undefined && customer.id ? { providerCustomerId: customer.id } : {}),
  ...(customer.firstName ? { firstName: customer.firstName } : {}),
  ...(customer.lastName ? { lastName: customer.lastName } : {}),
  attributes: attributes({ [`${provider}CustomerId`]: customer.id, ...extra }),
});

export interface Order {
  readonly id: string;
  /** Minor units. */
  readonly total: number | undefined;
  readonly currency: string | undefined;
  readonly productId?: string | undefined;
  readonly productName?: string | undefined;
  readonly at: Date;
}

/** An order: `ecommerce.order_placed`, so the commerce forecast counts it; its ID keeps webhook and sync from recording it twice. */
export const orderActivity = (provider: Provider, customer: Customer, order: Order): ContactActivity => ({
  ...person(provider, customer, { [`${provider}LastOrderAt`]: order.at.toISOString() }),
  events: [
    {
      name: INTEGRATION_EVENTS.order,
      properties: compact({
        orderId: order.id,
        total: order.total,
        currency: order.currency,
        productId: order.productId,
        productName: order.productName,
        provider,
      }),
      occurredAt: order.at,
      eventId: `${provider}:order:${order.id}`,
    },
  ],
});

export interface Subscription {
  readonly id: string;
  readonly plan: string | undefined;
  readonly status: string | undefined;
  readonly amount?: number | undefined;
  readonly currency?: string | undefined;
  readonly interval?: string | undefined;
  readonly at: Date;
}

export const subscriptionActivity = (provider: Provider, customer: Customer, subscription: Subscription, change: "started" | "cancelled"): ContactActivity => ({
  ...person(provider, customer, {
    [`${provider}Plan`]: subscription.plan,
    [`${provider}SubscriptionStatus`]: subscription.status ?? (change === "started" ? "active" : "canceled"),
  }),
  events: [
    {
      name: change === "started" ? INTEGRATION_EVENTS.subscriptionStarted : INTEGRATION_EVENTS.subscriptionCancelled,
      properties: compact({
        subscriptionId: subscription.id,
        plan: subscription.plan,
        status: subscription.status,
        amount: subscription.amount,
        currency: subscription.currency,
        interval: subscription.interval,
        provider,
      }),
      occurredAt: subscription.at,
      eventId: `${provider}:subscription:${subscription.id}:${change}`,
    },
  ],
});

export interface Refund {
  readonly id: string;
  readonly orderId?: string | undefined;
  readonly amount: number | undefined;
  readonly currency: string | undefined;
  readonly at: Date;
}

export const refundActivity = (provider: Provider, customer: Customer, refund: Refund): ContactActivity => ({
  ...person(provider, customer, {}),
  events: [
    {
      name: INTEGRATION_EVENTS.refund,
      properties: compact({ refundId: refund.id, orderId: refund.orderId, amount: refund.amount, currency: refund.currency, provider }),
      occurredAt: refund.at,
      eventId: `${provider}:refund:${refund.id}`,
    },
  ],
});

/** A customer record with no event: attributes and names only. */
export const customerActivity = (provider: Provider, customer: Customer): ContactActivity => ({ ...person(provider, customer, {}), events: [] });

/** A customer needs an email, or an ID the provider can resolve to one. */
export const identifiable = (customer: Customer): boolean => customer.email !== undefined || customer.id !== undefined;
