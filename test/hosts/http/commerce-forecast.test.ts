import test from "ava";
import { dialects } from "../../helpers/databases.js";
import { sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

const DAY = 24 * 60 * 60 * 1000;
const REFRESH_EVERY = 6 * 60 * 60 * 1000;

/** Orders sent through the events API as history (older than an hour), one bulk call per customer. */
async function placeOrders(s: SequenceSession, orders: Array<{ email: string; daysAgo: number; total: number }>, company = s.a): Promise<void> {
  const byCustomer = new Map<string, Array<{ daysAgo: number; total: number }>>();
  for (const { email, ...order } of orders) byCustomer.set(email, [...(byCustomer.get(email) ?? []), order]);
  const now = s.api.clock.now().getTime();
  for (const [email, placed] of byCustomer) {
    const events = placed.map(({ daysAgo, total }, i) => ({
      name: "ecommerce.order_placed",
      eventId: `${email}-${i}`,
      occurredAt: new Date(now - daysAgo * DAY).toISOString(),
      properties: { orderId: `${email}-${i}`, total, currency: "usd" },
    }));
    const response = await s.call("POST", "/api/v1/subscribers/events/bulk", { body: { email, events } }, company);
    if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  }
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: commerce forecast ${title}`;

  test(name("appears in account metrics once the worker has evaluated the order history, and never with an emailType or provider filter"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const orders: Array<{ email: string; daysAgo: number; total: number }> = [];
    for (let c = 0; c < 12; c++) orders.push({ email: `c${c}@example.com`, daysAgo: 60 - c * 5, total: 4_000 + 200 * c });
    for (let c = 0; c < 8; c++) orders.push({ email: `c${c}@example.com`, daysAgo: 2 + c, total: 5_000 });
    await placeOrders(s, orders);
    await placeOrders(s, [{ email: "solo@example.com", daysAgo: 10, total: 2_000 }], s.b);

    const before = await s.call("GET", "/api/v1/metrics");
    t.is(before.status, 200);
    t.false("commerceForecast" in before.body, "no snapshot yet: the field is omitted");

    // The worker's schedule evaluates every store with orders.
    await s.runJobs();
    s.api.clock.advance(REFRESH_EVERY + 1_000);
    await s.runJobs();

    const metrics = await s.call("GET", "/api/v1/metrics?period=30d");
    t.is(metrics.status, 200);
    const forecast = metrics.body.commerceForecast;
    t.like(forecast, {
      status: "ready",
      currency: "usd",
      history: { orders: 20, customers: 12, repeatCustomers: 8, days: 60 },
      eligibility: { eligible: true, reasons: [] },
      predictedOrderValue: { value: 5_060 },
      expected90Days: { orders: { value: 30 }, revenue: { value: 151_800 } },
    });
    t.true(forecast.predictedCustomerValue12Months.low <= forecast.predictedCustomerValue12Months.value);
    t.is(forecast.evaluatedAt, s.api.clock.now().toISOString());
    t.deepEqual((await s.call("GET", "/api/v1/stats?period=24h")).body.commerceForecast, forecast, "independent of the period, on the alias too");
    t.false("commerceForecast" in (await s.call("GET", "/api/v1/metrics?emailType=campaign")).body);
    t.false("commerceForecast" in (await s.call("GET", "/api/v1/metrics?mailboxProvider=gmail")).body);

    // The other store was evaluated too: too little history is insufficient_data, with the reasons.
    const other = (await s.call("GET", "/api/v1/metrics", {}, s.b)).body.commerceForecast;
    t.is(other.status, "insufficient_data");
    t.deepEqual(
      other.eligibility.reasons.map((reason: { code: string }) => reason.code),
      ["too_few_orders", "too_few_customers", "history_too_short", "too_few_repeat_customers"],
    );
    t.is(other.predictedOrderValue, null);
    t.is(other.history.orders, 1, "each company's snapshot holds its own orders only");
  });
}
