import test from "ava";
import { evaluateCommerceForecast, readPlacedOrder, type PlacedOrder } from "../../../core/metrics/commerce-forecast.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const order = (customer: number, daysAgo: number, total: number | null = 5_000): PlacedOrder => ({
  customerId: `sub_${customer}`,
  at: ago(daysAgo),
  total,
  currency: "usd",
});

/** 12 customers over 60 days, 8 of them twice: 20 orders, the last 2 days ago. */
function store(): PlacedOrder[] {
  const orders: PlacedOrder[] = [];
  for (let c = 0; c < 12; c++) orders.push(order(c, 60 - c * 5, 4_000 + 200 * c));
  for (let c = 0; c < 8; c++) orders.push(order(c, 2 + c, 5_000));
  return orders;
}

test("a store that meets every rule gets its order value, 12-month customer value and 90-day orders and revenue", (t) => {
  const forecast = evaluateCommerceForecast(store(), NOW);
  t.is(forecast.status, "ready");
  t.deepEqual(forecast.eligibility, { eligible: true, reasons: [] });
  t.deepEqual(forecast.history, { orders: 20, customers: 12, repeatCustomers: 8, days: 60, firstOrderAt: ago(60), lastOrderAt: ago(2) });
  t.is(forecast.currency, "usd");
  // Mean order 101,200 / 20; 20 orders in 60 days is 30 in 90; a customer orders 20/12 times in 60 days.
  t.is(forecast.predictedOrderValue!.value, 5_060);
  t.is(forecast.expected90Days!.orders.value, 30);
  t.is(forecast.expected90Days!.revenue.value, 151_800);
  t.is(forecast.predictedCustomerValue12Months!.value, Math.round(5_060 * (20 / 12) * (365 / 60)));
  for (const estimate of [
    forecast.predictedOrderValue!,
    forecast.predictedCustomerValue12Months!,
    forecast.expected90Days!.orders,
    forecast.expected90Days!.revenue,
  ]) {
    t.true(estimate.low <= estimate.value && estimate.value <= estimate.high, JSON.stringify(estimate));
    t.true(estimate.low < estimate.high);
  }
});

test("each threshold of the spec, one short, makes the store insufficient_data with that reason alone", (t) => {
  const cases: Array<[string, PlacedOrder[]]> = [
    ["too_few_orders", store().slice(0, 19)],
    [
      "too_few_customers",
      store().map((o) => (o.customerId === "sub_11" || o.customerId === "sub_10" || o.customerId === "sub_9" ? { ...o, customerId: "sub_8" } : o)),
    ],
    ["history_too_short", store().map((o) => ({ ...o, at: new Date(Math.max(o.at.getTime(), ago(29).getTime())) }))],
    ["too_few_repeat_customers", store().map((o, i) => (i >= 12 && i < 18 ? { ...o, customerId: `sub_new_${i}` } : o))],
    ["no_recent_order", store().map((o) => ({ ...o, at: new Date(o.at.getTime() - 44 * DAY) }))],
    ["no_order_totals", store().map((o) => ({ ...o, total: null }))],
  ];
  for (const [reason, orders] of cases) {
    const forecast = evaluateCommerceForecast(orders, NOW);
    t.is(forecast.status, "insufficient_data", reason);
    t.deepEqual(
      forecast.eligibility.reasons.map((r) => r.code),
      [reason],
      reason,
    );
    t.is(forecast.predictedOrderValue, null);
    t.is(forecast.expected90Days, null);
  }
});

test("only the last two years count, and exactly 20 orders, 10 customers, 30 days, 3 repeat customers and an order 45 days ago suffice", (t) => {
  const orders = store().concat([order(99, 731, 1_000_000)]);
  const forecast = evaluateCommerceForecast(orders, NOW);
  t.is(forecast.history.orders, 20, "an order over two years old is left out");
  t.is(forecast.predictedOrderValue!.value, 5_060);

  // At the thresholds exactly: 20 orders, 10 customers, 3 of them repeat, 30 days of history.
  const edge: PlacedOrder[] = [];
  for (let c = 0; c < 10; c++) edge.push(order(c, 30));
  for (let i = 0; i < 10; i++) edge.push(order(i % 3, 30));
  const atEdge = evaluateCommerceForecast(edge, NOW);
  t.like(atEdge.history, { orders: 20, customers: 10, repeatCustomers: 3, days: 30 });
  t.is(atEdge.status, "ready");
  t.is(
    evaluateCommerceForecast(
      edge.map((o) => ({ ...o, at: ago(45) })),
      NOW,
    ).status,
    "ready",
    "the last order 45 days ago is recent enough",
  );
  const stale = evaluateCommerceForecast(
    edge.map((o) => ({ ...o, at: new Date(ago(45).getTime() - 60_000) })),
    NOW,
  );
  t.deepEqual(
    stale.eligibility.reasons.map((r) => r.code),
    ["no_recent_order"],
  );
});

test("an order's total and currency are read from its properties; anything else is no total", (t) => {
  t.like(readPlacedOrder("sub_1", NOW, { total: 5998, currency: " USD " }), { total: 5998, currency: "usd" });
  t.like(readPlacedOrder("sub_1", NOW, { total: "59.98" }), { total: null, currency: null });
  t.like(readPlacedOrder("sub_1", NOW, { total: -5 }), { total: null });
  t.like(readPlacedOrder("sub_1", NOW, {}), { total: null });
});
