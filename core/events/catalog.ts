/**
 * The documented events: names with a known meaning and payload, listed by
 * `GET /events/schemas` whether or not the company has sent them yet.
 */
export interface PropertySchema {
  readonly name: string;
  /** JSON type: string, number, boolean, object, array or null. */
  readonly type: string;
  readonly description?: string;
}

export interface ProviderSchema {
  /** `api` for payloads sent to the events API; `observed` for what the company actually sent. */
  readonly provider: string;
  readonly examplePayload: Readonly<Record<string, unknown>>;
  readonly properties: readonly PropertySchema[];
}

export interface DocumentedEvent {
  readonly eventName: string;
  readonly label: string;
  readonly category: string;
  readonly description: string;
  readonly providers: readonly ProviderSchema[];
}

const api = (examplePayload: Record<string, unknown>, described: Record<string, string>): ProviderSchema => ({
  provider: "api",
  examplePayload,
  properties: Object.entries(examplePayload).map(([name, value]) => ({
    name,
    type: jsonTypeOf(value),
    ...(described[name] ? { description: described[name] } : {}),
  })),
});

/** The JSON type of a value, as property schemas name it. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

export const EVENT_CATALOG: readonly DocumentedEvent[] = [
  {
    eventName: "saas.signup",
    label: "Signed up",
    category: "saas",
    description: "A person created an account in your product.",
    providers: [api({ plan: "free", source: "website" }, { plan: "Plan chosen at signup", source: "Where the signup came from" })],
  },
  {
    eventName: "saas.trial_started",
    label: "Trial started",
    category: "saas",
    description: "A free trial of a paid plan began.",
    providers: [
      api(
        { plan: "pro", trialDays: 14, trialEndsAt: "2026-06-01T00:00:00.000Z" },
        { plan: "Plan on trial", trialDays: "Length of the trial", trialEndsAt: "When the trial ends (ISO 8601)" },
      ),
    ],
  },
  {
    eventName: "saas.purchase",
    label: "Purchase",
    category: "saas",
    description: "A customer paid for a plan or an add-on.",
    providers: [
      api(
        { plan: "pro", amount: 4900, currency: "usd", interval: "month" },
        { plan: "Plan bought", amount: "Amount in minor units (cents)", currency: "ISO 4217 code, lower case", interval: "Billing interval: month or year" },
      ),
    ],
  },
  {
    eventName: "saas.subscription_cancelled",
    label: "Subscription cancelled",
    category: "saas",
    description: "A customer cancelled a paid subscription.",
    providers: [api({ plan: "pro", reason: "too_expensive" }, { plan: "Plan cancelled", reason: "Cancellation reason, when known" })],
  },
  {
    eventName: "ecommerce.order_placed",
    label: "Order placed",
    category: "ecommerce",
    description: "A customer placed an order in your store.",
    providers: [
      api(
        { orderId: "1001", total: 5998, currency: "usd", items: [{ productId: "sku-1", name: "T-shirt", quantity: 2, price: 2999 }] },
        { orderId: "Your order reference", total: "Order total in minor units (cents)", currency: "ISO 4217 code, lower case", items: "Products ordered" },
      ),
    ],
  },
  {
    eventName: "ecommerce.cart_abandoned",
    label: "Cart abandoned",
    category: "ecommerce",
    description: "A customer left items in the cart without ordering.",
    providers: [
      api(
        { cartUrl: "https://shop.example.com/cart", total: 2999, currency: "usd" },
        { cartUrl: "Link back to the cart", total: "Cart total in minor units (cents)" },
      ),
    ],
  },
];

export const documentedEvent = (name: string): DocumentedEvent | undefined => EVENT_CATALOG.find((event) => event.eventName === name);
