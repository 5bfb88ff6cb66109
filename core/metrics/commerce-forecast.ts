/**
 * The commerce forecast of account metrics (spec, Metrics: `commerceForecast`), evaluated in the
 * background from a store's `ecommerce.order_placed` history: what an order is worth, what a
 * customer is worth over 12 months, and how many orders and how much revenue the next 90 days
 * should bring, each with a 95% range. Money is in minor units, as order totals are sent.
 */

export const ORDER_PLACED_EVENT = "ecommerce.order_placed";

/** The spec's thresholds, word for word: below any of them the store is `insufficient_data`. */
export const FORECAST_RULES = {
  historyDays: 730,
  minOrders: 20,
  minCustomers: 10,
  minHistoryDays: 30,
  minRepeatCustomers: 3,
  maxDaysSinceLastOrder: 45,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Two-sided 95%. */
const Z = 1.96;

/** One `ecommerce.order_placed` event as the forecast reads it. */
export interface PlacedOrder {
  readonly customerId: string;
  readonly at: Date;
  /** `properties.total` when it is a number of minor units, else null. */
  readonly total: number | null;
  readonly currency: string | null;
}

export interface Estimate {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

export type ForecastReasonCode =
  "too_few_orders" | "too_few_customers" | "history_too_short" | "too_few_repeat_customers" | "no_recent_order" | "no_order_totals";

export interface ForecastReason {
  readonly code: ForecastReasonCode;
  readonly message: string;
}

export interface CommerceForecast {
  readonly status: "ready" | "insufficient_data";
  readonly evaluatedAt: Date;
  /** The currency most orders name (lower case), null when none does. */
  readonly currency: string | null;
  readonly history: {
    readonly orders: number;
    readonly customers: number;
    readonly repeatCustomers: number;
    readonly days: number;
    readonly firstOrderAt: Date | null;
    readonly lastOrderAt: Date | null;
  };
  readonly predictedOrderValue: Estimate | null;
  readonly predictedCustomerValue12Months: Estimate | null;
  readonly expected90Days: { readonly orders: Estimate; readonly revenue: Estimate } | null;
  /** Eligible when no reason stands against it; the reasons say what the store still lacks. */
  readonly eligibility: { readonly eligible: boolean; readonly reasons: readonly ForecastReason[] };
}

const money = (value: number): number => Math.max(0, Math.round(value));
const count = (value: number): number => Math.max(0, Math.round(value * 10) / 10);

function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  for (const [value, n] of counts) if (best === null || n > counts.get(best)!) best = value;
  return best;
}

/** Why the history cannot carry a forecast, rule by rule (none: it can). */
function reasonsAgainst(history: CommerceForecast["history"], now: Date, totals: number): ForecastReason[] {
  const rules = FORECAST_RULES;
  const reasons: ForecastReason[] = [];
  if (history.orders < rules.minOrders) reasons.push({ code: "too_few_orders", message: `${history.orders} orders; at least ${rules.minOrders} are needed` });
  if (history.customers < rules.minCustomers)
    reasons.push({ code: "too_few_customers", message: `${history.customers} customers; at least ${rules.minCustomers} are needed` });
  if (history.days < rules.minHistoryDays)
    reasons.push({ code: "history_too_short", message: `${history.days} days of history; at least ${rules.minHistoryDays} are needed` });
  if (history.repeatCustomers < rules.minRepeatCustomers)
    reasons.push({ code: "too_few_repeat_customers", message: `${history.repeatCustomers} repeat customers; at least ${rules.minRepeatCustomers} are needed` });
  const sinceLast = history.lastOrderAt ? (now.getTime() - history.lastOrderAt.getTime()) / DAY_MS : Infinity;
  if (sinceLast > rules.maxDaysSinceLastOrder) reasons.push({ code: "no_recent_order", message: `no order in the last ${rules.maxDaysSinceLastOrder} days` });
  if (history.orders > 0 && totals === 0) reasons.push({ code: "no_order_totals", message: "no order carries a numeric total (minor units)" });
  return reasons;
}

/**
 * Evaluates a store's orders at `now`, reading the last two years only. Order value: the mean
 * order total with its 95% confidence interval. Orders in the next 90 days: the observed daily
 * rate times 90, with a Poisson 95% range; revenue: orders times order value, the ranges
 * multiplied. Customer value over 12 months: order value times a customer's observed orders a
 * year, its range from the order value's.
 */
export function evaluateCommerceForecast(orders: readonly PlacedOrder[], now: Date): CommerceForecast {
  const since = now.getTime() - FORECAST_RULES.historyDays * DAY_MS;
  const window = orders.filter((order) => order.at.getTime() >= since && order.at.getTime() <= now.getTime());
  const perCustomer = new Map<string, number>();
  for (const order of window) perCustomer.set(order.customerId, (perCustomer.get(order.customerId) ?? 0) + 1);
  const times = window.map((order) => order.at.getTime());
  const first = times.length ? new Date(Math.min(...times)) : null;
  const last = times.length ? new Date(Math.max(...times)) : null;
  const history = {
    orders: window.length,
    customers: perCustomer.size,
    repeatCustomers: [...perCustomer.values()].filter((n) => n >= 2).length,
    days: first ? Math.floor((now.getTime() - first.getTime()) / DAY_MS) : 0,
    firstOrderAt: first,
    lastOrderAt: last,
  };
  const totals = window.flatMap((order) => (order.total !== null ? [order.total] : []));
  const currency = mostCommon(window.flatMap((order) => (order.currency ? [order.currency] : [])));
  const reasons = reasonsAgainst(history, now, totals.length);
  const base = { evaluatedAt: now, currency, history, eligibility: { eligible: reasons.length === 0, reasons } };
  if (reasons.length > 0)
    return { ...base, status: "insufficient_data", predictedOrderValue: null, predictedCustomerValue12Months: null, expected90Days: null };

  const mean = totals.reduce((sum, total) => sum + total, 0) / totals.length;
  const variance = totals.length > 1 ? totals.reduce((sum, total) => sum + (total - mean) ** 2, 0) / (totals.length - 1) : 0;
  const margin = Z * Math.sqrt(variance / totals.length);
  const orderValue = { value: money(mean), low: money(mean - margin), high: money(mean + margin) };

  const observedDays = Math.max(history.days, 1);
  const expected = (history.orders / observedDays) * 90;
  const spread = Z * Math.sqrt(expected);
  const ordersRange = { value: count(expected), low: count(expected - spread), high: count(expected + spread) };
  const revenue = { value: money(expected * mean), low: money(ordersRange.low * orderValue.low), high: money(ordersRange.high * orderValue.high) };

  const ordersPerCustomerYear = (history.orders / history.customers) * (365 / observedDays);
  const customerValue = {
    value: money(mean * ordersPerCustomerYear),
    low: money(orderValue.low * ordersPerCustomerYear),
    high: money(orderValue.high * ordersPerCustomerYear),
  };
  return {
    ...base,
    status: "ready",
    predictedOrderValue: orderValue,
    predictedCustomerValue12Months: customerValue,
    expected90Days: { orders: ordersRange, revenue },
  };
}

/** An order's total and currency from its event properties, as the event catalog documents them. */
export function readPlacedOrder(customerId: string, at: Date, properties: Readonly<Record<string, unknown>>): PlacedOrder {
  const total = properties.total;
  const currency = properties.currency;
  return {
    customerId,
    at,
    total: typeof total === "number" && Number.isFinite(total) && total >= 0 ? total : null,
    currency: typeof currency === "string" && currency.trim() !== "" ? currency.trim().toLowerCase() : null,
  };
}
