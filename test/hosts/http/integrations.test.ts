import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import nock from "nock";
import { PROVIDERS, type Provider } from "../../../core/integrations/model.js";
import { createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import type { Dialect } from "../../helpers/databases.js";
import { dialects } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { providerDelivery } from "../../helpers/provider-payloads.js";
import { signWebhook } from "../../helpers/provider-webhooks.js";
import { BASE_URL } from "../../helpers/runtime.js";
import { createAndEnable, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

// Provider APIs are served by nock (each test with keys of its own, so tests running side by side never share interceptors); everything else is on loopback.
nock.disableNetConnect();
nock.enableNetConnect(/127\.0\.0\.1|localhost/);

const CONNECT = "/api/v1/integrations/connect";
let unique = 0;
const nextId = () => `${Date.now().toString(36)}${(unique++).toString(36)}`;

interface Session {
  readonly s: SequenceSession;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  readonly knex: Knex;
  /** Calls with the company's keys in turn, so a long test stays inside each key's rate budget. */
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): Promise<JsonResponse>;
  /** Posts a raw webhook, as the provider would. */
  webhook(provider: Provider, companyId: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }>;
  runJobs(): Promise<number>;
  count(table: string): Promise<number>;
  /** The custom events of a company's contact, oldest first. */
  events(email: string, company?: CompanyFixture): Promise<Array<{ name: string; properties: Record<string, unknown>; source: string }>>;
  contact(email: string, company?: CompanyFixture): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const s = await sequenceSession(t, dialect);
  const container = s.api.runtime.container;
  const rings = new Map<string, string[]>();
  for (const company of [s.a, s.b]) {
    const ring = [company.ownerKey];
    for (let i = 0; i < 2; i++) ring.push((await createMemberKeyFixture(container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
    rings.set(company.companyId, ring);
  }
  let next = 0;
  const knex = s.api.runtime.knex;
  const call: Session["call"] = (method, path, options = {}, company = s.a) => {
    const ring = rings.get(company.companyId)!;
    return s.api.call(method, path, { key: ring[next++ % ring.length]!, ...options });
  };
  return {
    s,
    a: s.a,
    b: s.b,
    knex,
    call,
    async webhook(provider, companyId, body, headers) {
      const response = await fetch(`${s.api.server.url}/api/webhooks/${provider}/${companyId}`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    runJobs: () => s.runJobs(),
    count: async (table) => Number((await knex(table).count({ n: "*" }).first())!.n),
    async events(email, company = s.a) {
      const rows = await knex("custom_events")
        .join("subscribers", "subscribers.id", "custom_events.subscriber_id")
        .where({ "subscribers.email": email, "subscribers.company_id": company.companyId })
        .orderBy("custom_events.occurred_at")
        .select("custom_events.name", "custom_events.properties", "custom_events.source");
      return rows.map((row: { name: string; properties: unknown; source: string }) => ({
        name: row.name,
        properties: typeof row.properties === "string" ? JSON.parse(row.properties) : (row.properties as Record<string, unknown>),
        source: row.source,
      }));
    },
    contact: (email, company = s.a) => call("GET", `/api/v1/subscribers/${encodeURIComponent(email)}`, {}, company),
  };
}

/** Every row of every table, as text: where a secret must not appear. */
async function everyStoredRow(knex: Knex, dialect: Dialect): Promise<string> {
  const tables: string[] =
    dialect.name === "sqlite"
      ? (await knex.raw("select name from sqlite_master where type = 'table'")).map((row: { name: string }) => row.name)
      : (await knex.raw("select table_name from information_schema.tables where table_schema = current_schema()")).rows.map(
          (row: { table_name: string }) => row.table_name,
        );
  const dumps: string[] = [];
  for (const table of tables) dumps.push(JSON.stringify(await knex(table).select("*")));
  return dumps.join("\n");
}

/** What connecting each provider sends, and the provider API calls it makes (credential check, then an empty first sync page). */
function connection(provider: Provider, id: string): { body: Record<string, unknown>; intercept: () => void; secret: string } {
  const empty = { items: [], pagination: { total_count: 0, max_page: 1 } };
  switch (provider) {
    case "polar": {
      const apiKey = `polar_oat_${id}`;
      return {
        secret: `polar_whs_${id}`,
        body: { provider, apiKey, webhookSecret: `polar_whs_${id}` },
        intercept: () => {
          nock("https://api.polar.sh")
            .get("/v1/organizations/")
            .query(true)
            .matchHeader("authorization", `Bearer ${apiKey}`)
            .reply(200, { items: [{ id: `org_${id}`, name: "Acme Inc", slug: "acme" }], pagination: { total_count: 1, max_page: 1 } });
          nock("https://api.polar.sh").get("/v1/orders/").query(true).matchHeader("authorization", `Bearer ${apiKey}`).times(2).reply(200, empty);
        },
      };
    }
    case "paddle": {
      const apiKey = `pdl_live_apikey_${id}`;
      return {
        secret: `pdl_ntfset_${id}`,
        body: { provider, apiKey, webhookSecret: `pdl_ntfset_${id}`, providerAccountId: `seller_${id}` },
        intercept: () => {
          const paddle = () => nock("https://api.paddle.com").matchHeader("authorization", `Bearer ${apiKey}`);
          paddle()
            .get("/transactions")
            .query(true)
            .times(2)
            .reply(200, { data: [], meta: { pagination: { per_page: 1, next: null, has_more: false } } });
          paddle()
            .get("/customers")
            .query(true)
            .reply(200, { data: [], meta: { pagination: { has_more: false } } });
          paddle()
            .get("/customers/ctm_01paddle")
            .reply(200, { data: { id: "ctm_01paddle", email: "ada@example.com", name: "Ada Lovelace", status: "active" } });
        },
      };
    }
    case "dodo": {
      const apiKey = `dodo_${id}`;
      return {
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        body: { provider, apiKey, webhookSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", providerAccountId: `bus_${id}` },
        intercept: () => {
          nock("https://live.dodopayments.com")
            .get("/payments")
            .query(true)
            .matchHeader("authorization", `Bearer ${apiKey}`)
            .times(2)
            .reply(200, { items: [] });
        },
      };
    }
    case "whop": {
      const apiKey = `whop_${id}`;
      return {
        secret: `ws_${id}`,
        body: { provider, apiKey, webhookSecret: `ws_${id}`, providerAccountId: `biz_${id}` },
        intercept: () => {
          nock("https://api.whop.com")
            .get("/api/v1/payments")
            .query(true)
            .matchHeader("authorization", `Bearer ${apiKey}`)
            .times(2)
            .reply(200, { data: [], page_info: { end_cursor: null, has_next_page: false } });
        },
      };
    }
    case "creem": {
      const apiKey = `creem_${id}`;
      return {
        secret: `whsec_creem_${id}`,
        body: { provider, apiKey, webhookSecret: `whsec_creem_${id}`, providerAccountId: `sto_${id}` },
        intercept: () => {
          nock("https://api.creem.io")
            .get("/v1/transactions/search")
            .query(true)
            .matchHeader("x-api-key", apiKey)
            .times(2)
            .reply(200, { items: [], pagination: { total_records: 0, current_page: 1, next_page: null } });
        },
      };
    }
    case "chargebee": {
      const site = `acme-${id}`.toLowerCase();
      const apiKey = `live_${id}`;
      return {
        secret: `hooks:${id}-pass`,
        body: { provider, apiKey, webhookSecret: `hooks:${id}-pass`, providerAccountId: site },
        intercept: () => {
          const chargebee = nock(`https://${site}.chargebee.com`).matchHeader("authorization", `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`);
          chargebee.get("/api/v2/subscriptions").query(true).reply(200, { list: [] });
          chargebee.get("/api/v2/invoices").query(true).reply(200, { list: [] });
        },
      };
    }
    case "clerk":
      return {
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        body: { provider, webhookSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
        intercept: () => {},
      };
    case "posthog":
      return { secret: `posthog-shared-secret-${id}`, body: { provider, webhookSecret: `posthog-shared-secret-${id}` }, intercept: () => {} };
    case "affonso": {
      const apiKey = `aff_${id}`;
      return {
        secret: `whsec_affonso_${id}`,
        body: { provider, apiKey, webhookSecret: `whsec_affonso_${id}` },
        intercept: () => {
          const affonso = nock("https://api.affonso.io").matchHeader("authorization", `Bearer ${apiKey}`);
          affonso
            .get("/v1/affiliates")
            .query(true)
            .reply(200, { data: [], pagination: { has_more: false } });
          affonso
            .get("/v1/referrals")
            .query(true)
            .reply(200, { data: [], pagination: { has_more: false } });
        },
      };
    }
  }
}

/** A provider whose credential check passes and whose first sync page holds one paid record of `email`, `at`. */
function syncedHistory(
  provider: "paddle" | "dodo" | "whop" | "creem" | "chargebee" | "affonso",
  id: string,
  email: string,
  at: Date,
): { body: Record<string, unknown>; pages: () => void; expected: [string, unknown] } {
  const order = "ecommerce.order_placed";
  switch (provider) {
    case "paddle": {
      const apiKey = `pdl_live_apikey_${id}`;
      return {
        body: { provider, apiKey, webhookSecret: "s", providerAccountId: "seller_1" },
        expected: [order, 2500],
        pages: () => {
          const paddle = () => nock("https://api.paddle.com").matchHeader("authorization", `Bearer ${apiKey}`);
          paddle()
            .get("/transactions")
            .query({ per_page: "1" })
            .reply(200, { data: [], meta: { pagination: { has_more: false } } });
          paddle()
            .get("/customers")
            .query({ per_page: "1" })
            .reply(200, { data: [], meta: { pagination: { has_more: false } } });
          paddle()
            .get("/transactions")
            .query((query) => query.status === "completed")
            .reply(200, {
              data: [
                {
                  id: "txn_h1",
                  status: "completed",
                  customer_id: "ctm_h1",
                  currency_code: "USD",
                  billed_at: at.toISOString(),
                  items: [{ price: { product_id: "pro_1", description: "Pro" } }],
                  details: { totals: { total: "2500", grand_total: "2500" } },
                },
              ],
              meta: { pagination: { per_page: 100, has_more: false } },
            });
          paddle()
            .get("/customers/ctm_h1")
            .reply(200, { data: { id: "ctm_h1", email } });
        },
      };
    }
    case "dodo": {
      const apiKey = `dodo_${id}`;
      return {
        body: { provider, apiKey, webhookSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", providerAccountId: "bus_1" },
        expected: [order, 2500],
        pages: () => {
          const dodo = () => nock("https://live.dodopayments.com").matchHeader("authorization", `Bearer ${apiKey}`);
          dodo().get("/payments").query({ page_size: "1" }).reply(200, { items: [] });
          dodo()
            .get("/payments")
            .query((query) => query.page_number === "0")
            .reply(200, {
              items: [
                {
                  payment_id: "pay_h1",
                  status: "succeeded",
                  total_amount: 2500,
                  currency: "USD",
                  created_at: at.toISOString(),
                  customer: { customer_id: "c1", email, name: "Bo Buyer" },
                },
              ],
            });
        },
      };
    }
    case "whop": {
      const apiKey = `whop_${id}`;
      return {
        body: { provider, apiKey, webhookSecret: "s", providerAccountId: "biz_1" },
        expected: [order, 2500],
        pages: () => {
          const whop = () => nock("https://api.whop.com").matchHeader("authorization", `Bearer ${apiKey}`);
          whop()
            .get("/api/v1/payments")
            .query({ company_id: "biz_1", first: "1" })
            .reply(200, { data: [], page_info: { has_next_page: false } });
          whop()
            .get("/api/v1/payments")
            .query({ company_id: "biz_1", first: "100" })
            .reply(200, {
              data: [
                {
                  id: "pay_h1",
                  status: "paid",
                  total: 25,
                  currency: "usd",
                  paid_at: at.toISOString(),
                  user: { id: "u1", email },
                  product: { id: "p1", title: "Pro" },
                },
              ],
              page_info: { end_cursor: "c1", has_next_page: false },
            });
        },
      };
    }
    case "creem": {
      const apiKey = `creem_${id}`;
      return {
        body: { provider, apiKey, webhookSecret: "s", providerAccountId: "sto_1" },
        expected: [order, 2500],
        pages: () => {
          const creem = () => nock("https://api.creem.io").matchHeader("x-api-key", apiKey);
          creem()
            .get("/v1/transactions/search")
            .query({ page_size: "1" })
            .reply(200, { items: [], pagination: { next_page: null } });
          creem()
            .get("/v1/transactions/search")
            .query({ page_number: "1", page_size: "100" })
            .reply(200, {
              items: [
                {
                  id: "tran_h1",
                  order: "ord_h1",
                  customer: "cust_h1",
                  amount: 2500,
                  amount_paid: 2500,
                  currency: "USD",
                  status: "paid",
                  created_at: at.getTime(),
                },
              ],
              pagination: { total_records: 1, next_page: null },
            });
          creem().get("/v1/customers").query({ customer_id: "cust_h1" }).reply(200, { id: "cust_h1", email, name: "Bo Buyer" });
        },
      };
    }
    case "chargebee": {
      const apiKey = `live_${id}`;
      const site = `shop-${id}`.toLowerCase();
      return {
        body: { provider, apiKey, webhookSecret: "user:pass", providerAccountId: site },
        expected: [order, 2500],
        pages: () => {
          const chargebee = () => nock(`https://${site}.chargebee.com`).matchHeader("authorization", `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`);
          chargebee().get("/api/v2/subscriptions").query(true).reply(200, { list: [] });
          chargebee()
            .get("/api/v2/invoices")
            .query(true)
            .reply(200, {
              list: [
                {
                  invoice: {
                    id: "inv_h1",
                    customer_id: "cb_h1",
                    total: 2500,
                    amount_paid: 2500,
                    currency_code: "USD",
                    paid_at: Math.floor(at.getTime() / 1000),
                    status: "paid",
                  },
                },
              ],
            });
          chargebee()
            .get("/api/v2/customers/cb_h1")
            .reply(200, { customer: { id: "cb_h1", email, first_name: "Bo" } });
        },
      };
    }
    case "affonso": {
      const apiKey = `aff_${id}`;
      return {
        body: { provider, apiKey, webhookSecret: "s" },
        expected: ["affiliate.referral_converted", "ref_h1"],
        pages: () => {
          const affonso = () => nock("https://api.affonso.io").matchHeader("authorization", `Bearer ${apiKey}`);
          affonso().get("/v1/affiliates").query(true).reply(200, { data: [] });
          affonso()
            .get("/v1/referrals")
            .query(true)
            .reply(200, {
              data: [{ id: "ref_h1", email, affiliate_id: "aff_1", status: "converted", created_at: at.toISOString() }],
              pagination: { has_more: false },
            });
        },
      };
    }
  }
}

async function connect(x: Session, provider: Provider, company?: CompanyFixture): Promise<{ integration: any; secret: string; response: JsonResponse }> {
  const { body, intercept, secret } = connection(provider, nextId());
  intercept();
  const response = await x.call("POST", CONNECT, { body }, company);
  if (response.status !== 200) throw new Error(`${provider} not connected: ${response.status} ${JSON.stringify(response.body)}`);
  return { integration: response.body.integration, secret, response };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: integrations ${title}`;

  for (const provider of PROVIDERS) {
    test(name(`${provider}: a signed webhook becomes the contact's event and attributes once, however often it is delivered`), async (t) => {
      const x = await session(t, dialect);
      const { integration, secret, response } = await connect(x, provider);
      t.is(response.body.webhookUrl, `${BASE_URL}/api/webhooks/${provider}/${x.a.companyId}`);
      t.is(integration.provider, provider);
      t.false(JSON.stringify(response.body).includes(secret), "the secret is never returned");

      const delivery = providerDelivery(provider, "ada@example.com", x.s.api.clock.now());
      const raw = JSON.stringify(delivery.body);
      const headers = signWebhook(provider, secret, raw, x.s.api.clock.now(), delivery.eventId);
      const first = await x.webhook(provider, x.a.companyId, raw, headers);
      t.deepEqual(first, { status: 200, body: { success: true, received: true, duplicate: false } });
      await x.runJobs();

      const events = await x.events("ada@example.com");
      t.deepEqual(
        events.map((event) => [event.name, event.source]),
        [[delivery.event, "integration"]],
      );
      const contact = await x.contact("ada@example.com");
      t.is(contact.status, 200);
      t.truthy(contact.body.subscriber.customAttributes[delivery.attribute], `${delivery.attribute} is set`);

      const again = await x.webhook(provider, x.a.companyId, raw, signWebhook(provider, secret, raw, x.s.api.clock.now(), delivery.eventId));
      t.deepEqual(again, { status: 200, body: { success: true, received: true, duplicate: true } });
      await x.runJobs();
      t.is((await x.events("ada@example.com")).length, 1, "a redelivery records nothing again");
      t.is(await x.count("integration_deliveries"), 1);

      const activity = await x.call("GET", `/api/v1/integrations/activity?provider=${provider}`);
      t.is(activity.status, 200);
      t.is(activity.body.windowHours, 24);
      t.like(activity.body.activity[0], { integrationId: integration.id, provider, eventId: delivery.eventId, status: "processed", events: [delivery.event] });
      t.is(activity.body.activity.length, 1);
    });
  }

  test(
    name("orders are recorded as ecommerce.order_placed with amounts in minor units, and start event sequences through the automations entry point"),
    async (t) => {
      const x = await session(t, dialect);
      await createAndEnable(x.s, {
        name: "Thank buyers",
        trigger: "event_received",
        eventName: "ecommerce.order_placed",
        steps: [{ subject: "Thanks for your order", html: "<p>Thanks</p>" }],
      });
      const { secret } = await connect(x, "whop");
      const delivery = providerDelivery("whop", "buyer@example.com", x.s.api.clock.now(), "77");
      const raw = JSON.stringify(delivery.body);
      t.is((await x.webhook("whop", x.a.companyId, raw, signWebhook("whop", secret, raw, x.s.api.clock.now()))).status, 200);
      await x.runJobs();
      const [order] = await x.events("buyer@example.com");
      t.deepEqual(order!.properties, {
        orderId: "pay_77",
        total: 4900,
        currency: "usd",
        productId: "prod_whop_1",
        productName: "Pro community",
        provider: "whop",
      });
      await x.runJobs();
      t.deepEqual(x.s.received()["buyer@example.com"], ["Thanks for your order"]);
    },
  );

  test(
    name("a bad signature, an old timestamp, an unknown company, a provider not connected or an oversized body each get a 4xx and store nothing"),
    async (t) => {
      const x = await session(t, dialect);
      const { secret } = await connect(x, "polar");
      const now = x.s.api.clock.now();
      const delivery = providerDelivery("polar", "ada@example.com", now);
      const raw = JSON.stringify(delivery.body);

      const forged = await x.webhook("polar", x.a.companyId, raw, signWebhook("polar", `${secret}-guess`, raw, now));
      t.is(forged.status, 401);
      t.deepEqual(forged.body, { success: false, error: "Invalid webhook signature" });
      const old = await x.webhook("polar", x.a.companyId, raw, signWebhook("polar", secret, raw, new Date(now.getTime() - 6 * 60_000)));
      t.is(old.status, 401);
      t.regex(old.body.error, /replay window/);
      const unsigned = await x.webhook("polar", x.a.companyId, raw, {});
      t.is(unsigned.status, 401);
      const unknown = await x.webhook("polar", "cmp_doesnotexist", raw, signWebhook("polar", secret, raw, now));
      t.is(unknown.status, 404);
      const otherCompany = await x.webhook("polar", x.b.companyId, raw, signWebhook("polar", secret, raw, now));
      t.is(otherCompany.status, 404, "company B has not connected polar: A's secret opens nothing there");
      const notConnected = await x.webhook("creem", x.a.companyId, raw, signWebhook("creem", secret, raw, now));
      t.is(notConnected.status, 404);
      const huge = JSON.stringify({ ...delivery.body, padding: "x".repeat(300 * 1024) });
      const oversized = await x.webhook("polar", x.a.companyId, huge, signWebhook("polar", secret, huge, now));
      t.is(oversized.status, 413);
      const notJson = await x.webhook("polar", x.a.companyId, "not json", signWebhook("polar", secret, "not json", now));
      t.is(notJson.status, 400);

      await x.runJobs();
      t.is(await x.count("integration_deliveries"), 0);
      t.is((await x.contact("ada@example.com")).status, 404);
    },
  );

  test(name("connect checks the spec's rules and the provider's answer, and saves nothing when refused"), async (t) => {
    const x = await session(t, dialect);
    const refused = async (body: Record<string, unknown>, status: number, pattern: RegExp) => {
      const response = await x.call("POST", CONNECT, { body });
      t.is(response.status, status, JSON.stringify(body));
      t.false(response.body.success);
      t.regex(response.body.error, pattern);
    };
    await refused({ provider: "polar", webhookSecret: "s" }, 400, /apiKey is required for polar/);
    await refused({ provider: "paddle", apiKey: "k", webhookSecret: "s" }, 400, /providerAccountId \(the Paddle seller ID\) is required/);
    await refused({ provider: "stripe", apiKey: "k", webhookSecret: "s" }, 400, /connect it in the dashboard/);
    await refused({ provider: "shopify", webhookSecret: "s" }, 400, /dashboard/);
    await refused(
      { provider: "lemonade", webhookSecret: "s" },
      422,
      /provider must be one of polar, paddle, dodo, whop, creem, chargebee, clerk, posthog, affonso/,
    );
    await refused({ provider: "polar", apiKey: "k", webhookSecret: "s", settings: { syncAllEvents: true } }, 400, /analytics provider \(posthog\) only/);
    await refused({ provider: "chargebee", apiKey: "k", webhookSecret: "no-colon", providerAccountId: "acme" }, 400, /username:password/);
    await refused({ provider: "chargebee", apiKey: "k", webhookSecret: "u:p", providerAccountId: "evil.example.com/x" }, 400, /site name/);
    await refused({ provider: "whop", apiKey: "k", webhookSecret: "s", providerAccountId: "company" }, 400, /biz_/);
    await refused({ provider: "posthog", webhookSecret: "short" }, 400, /at least 16 characters/);
    await refused({ webhookSecret: "s" }, 422, /provider/);

    const id = nextId();
    nock("https://api.polar.sh").get("/v1/organizations/").query(true).matchHeader("authorization", `Bearer bad_${id}`).reply(401, { error: "invalid_token" });
    await refused({ provider: "polar", apiKey: `bad_${id}`, webhookSecret: "s" }, 400, /Polar refused the credentials/);
    nock("https://api.polar.sh")
      .get("/v1/organizations/")
      .query(true)
      .matchHeader("authorization", `Bearer weak_${id}`)
      .reply(200, { items: [{ id: `org_weak_${id}`, name: "Weak" }], pagination: { max_page: 1 } });
    nock("https://api.polar.sh").get("/v1/orders/").query(true).matchHeader("authorization", `Bearer weak_${id}`).reply(403, { error: "insufficient_scope" });
    await refused({ provider: "polar", apiKey: `weak_${id}`, webhookSecret: "s" }, 400, /missing read permission \(orders:read\)/);
    nock("https://api.paddle.com")
      .get("/transactions")
      .query(true)
      .matchHeader("authorization", `Bearer pdl_live_apikey_bad${id}`)
      .reply(403, { error: { type: "request_error", code: "forbidden" } });
    await refused({ provider: "paddle", apiKey: `pdl_live_apikey_bad${id}`, webhookSecret: "s", providerAccountId: "123" }, 400, /missing read permission/);

    t.is(await x.count("integrations"), 0);
    const listed = await x.call("GET", "/api/v1/integrations?includeInactive=true");
    t.deepEqual(listed.body, { success: true, integrations: [] });
  });

  test(name("credentials are stored sealed and never returned; reconnecting replaces them; an account held by another workspace is 409"), async (t) => {
    const x = await session(t, dialect);
    const id = nextId();
    const apiKey = `polar_oat_${id}`;
    const polar = (key: string, org: string) => {
      nock("https://api.polar.sh")
        .get("/v1/organizations/")
        .query(true)
        .matchHeader("authorization", `Bearer ${key}`)
        .reply(200, { items: [{ id: org, name: "Acme Inc" }], pagination: { max_page: 1 } });
      nock("https://api.polar.sh")
        .get("/v1/orders/")
        .query(true)
        .matchHeader("authorization", `Bearer ${key}`)
        .times(2)
        .reply(200, { items: [], pagination: { max_page: 1 } });
    };
    polar(apiKey, `org_${id}`);
    const first = await x.call("POST", CONNECT, { body: { provider: "polar", apiKey, webhookSecret: `first_secret_${id}` } });
    t.is(first.status, 200);
    t.like(first.body, {
      success: true,
      revenueSyncQueued: true,
      integration: { provider: "polar", name: "Acme Inc", providerAccountId: `org_${id}`, isActive: true, syncEnabled: true, syncStatus: "queued" },
    });
    t.deepEqual(Object.keys(first.body).sort(), ["integration", "revenueSyncQueued", "success", "webhookUrl"]);
    const stored = await everyStoredRow(x.knex, dialect);
    t.false(stored.includes(apiKey), "the API key is not stored in plain text");
    t.false(stored.includes(`first_secret_${id}`), "the webhook secret is not stored in plain text");

    const listed = await x.call("GET", "/api/v1/integrations");
    t.is(listed.body.integrations.length, 1);
    t.false(JSON.stringify(listed.body).includes(apiKey));
    const got = await x.call("GET", `/api/v1/integrations/${first.body.integration.id}`);
    t.is(got.status, 200);
    t.like(got.body, {
      capabilities: { webhooks: true, sync: "revenue", webhookUrl: `${BASE_URL}/api/webhooks/polar/${x.a.companyId}` },
      ingestion: { listTargeting: "company_default", listIds: [] },
    });
    t.false(JSON.stringify(got.body).includes(`first_secret_${id}`));

    // Another workspace cannot take the same Polar organization.
    polar(`polar_oat_b${id}`, `org_${id}`);
    const taken = await x.call("POST", CONNECT, { body: { provider: "polar", apiKey: `polar_oat_b${id}`, webhookSecret: "other" } }, x.b);
    t.is(taken.status, 409);
    t.regex(taken.body.error, /already connected to another workspace/);

    // Reconnecting replaces the credentials: the old webhook secret no longer opens the webhook URL.
    polar(`polar_oat_new${id}`, `org_${id}`);
    const again = await x.call("POST", CONNECT, { body: { provider: "polar", apiKey: `polar_oat_new${id}`, webhookSecret: `second_secret_${id}` } });
    t.is(again.status, 200);
    t.is(again.body.integration.id, first.body.integration.id);
    t.false(again.body.revenueSyncQueued, "the first sync is still queued");
    const raw = JSON.stringify(providerDelivery("polar", "ada@example.com", x.s.api.clock.now()).body);
    t.is((await x.webhook("polar", x.a.companyId, raw, signWebhook("polar", `first_secret_${id}`, raw, x.s.api.clock.now()))).status, 401);
    t.is((await x.webhook("polar", x.a.companyId, raw, signWebhook("polar", `second_secret_${id}`, raw, x.s.api.clock.now()))).status, 200);
  });

  test(name("another company's integration is 404 on every route"), async (t) => {
    const x = await session(t, dialect);
    const { integration } = await connect(x, "clerk");
    for (const [method, path, body] of [
      ["GET", `/api/v1/integrations/${integration.id}`, undefined],
      ["PATCH", `/api/v1/integrations/${integration.id}`, { syncEnabled: false }],
      ["POST", `/api/v1/integrations/${integration.id}/sync`, undefined],
      ["POST", `/api/v1/integrations/${integration.id}/disconnect`, undefined],
    ] as const) {
      const response = await x.call(method, path, body === undefined ? {} : { body }, x.b);
      t.is(response.status, 404, `${method} ${path}`);
      t.deepEqual(response.body, { success: false, error: "Integration not found" });
    }
    t.deepEqual((await x.call("GET", "/api/v1/integrations", {}, x.b)).body.integrations, []);
    t.deepEqual((await x.call("GET", `/api/v1/integrations/activity?integrationId=${integration.id}`, {}, x.b)).body.activity, []);
    t.is((await x.call("GET", `/api/v1/integrations/${integration.id}`)).status, 200, "still there for its own company");
  });

  test(
    name(
      "list targeting puts new contacts on the chosen lists; sync off records webhooks without applying them; disconnect refuses them and frees the account",
    ),
    async (t) => {
      const x = await session(t, dialect);
      const { integration, secret } = await connect(x, "clerk");
      const path = `/api/v1/integrations/${integration.id}`;
      t.is((await x.call("PATCH", path, { body: {} })).status, 400);
      const missing = await x.call("PATCH", path, { body: { listIds: ["lst_missing"] } });
      t.is(missing.status, 404);
      t.regex(missing.body.error, /List not found: lst_missing/);
      const foreignList = (await x.call("POST", "/api/v1/lists", { body: { name: "B's list" } }, x.b)).body.list.id;
      t.is((await x.call("PATCH", path, { body: { listIds: [foreignList] } })).status, 404, "another company's list is not found");
      const listId = (await x.call("POST", "/api/v1/lists", { body: { name: "Signups" } })).body.list.id;
      const patched = await x.call("PATCH", path, { body: { listIds: [listId] } });
      t.deepEqual(patched.body, {
        success: true,
        integrationId: integration.id,
        provider: "clerk",
        syncEnabled: true,
        listTargeting: "specific",
        listIds: [listId],
        changed: true,
        changedFields: ["listIds"],
        message: "Updated listIds: events are applied; new contacts join 1 list(s)",
      });

      const send = async (email: string, ref: string) => {
        const delivery = providerDelivery("clerk", email, x.s.api.clock.now(), ref);
        const raw = JSON.stringify(delivery.body);
        return x.webhook("clerk", x.a.companyId, raw, signWebhook("clerk", secret, raw, x.s.api.clock.now(), delivery.eventId));
      };
      t.is((await send("grace@example.com", "1")).status, 200);
      await x.runJobs();
      const members = await x
        .knex("list_memberships")
        .join("subscribers", "subscribers.id", "list_memberships.subscriber_id")
        .where({ list_id: listId })
        .select("email");
      t.deepEqual(
        members.map((row: { email: string }) => row.email),
        ["grace@example.com"],
      );
      t.like((await x.contact("grace@example.com")).body.subscriber, { firstName: "Ada", lastName: "Lovelace" });

      t.like((await x.call("PATCH", path, { body: { syncEnabled: false } })).body, { syncEnabled: false, changedFields: ["syncEnabled"] });
      t.is((await send("linus@example.com", "2")).status, 200);
      await x.runJobs();
      t.is((await x.contact("linus@example.com")).status, 404, "not applied while sync is off");
      const skipped = await x.call("GET", `/api/v1/integrations/activity?status=skipped`);
      t.like(skipped.body.activity[0], { status: "skipped", reason: "sync is disabled for this integration" });

      const disconnected = await x.call("POST", `${path}/disconnect`);
      t.like(disconnected.body, { success: true, integrationId: integration.id, disconnected: true, changed: true });
      t.is((await send("margaret@example.com", "3")).status, 404);
      t.deepEqual((await x.call("GET", "/api/v1/integrations")).body.integrations, []);
      t.like((await x.call("GET", "/api/v1/integrations?includeInactive=true")).body.integrations[0], { id: integration.id, isActive: false });
      t.is((await x.call("POST", `${path}/sync`)).status, 400);
      // The same Clerk instance (same signing secret) may now connect to company B.
      const moved = await x.call("POST", CONNECT, { body: { provider: "clerk", webhookSecret: secret } }, x.b);
      t.is(moved.status, 200);
    },
  );

  test(name("a revenue sync pages the provider's orders as history, recorded once even when a webhook brought one already"), async (t) => {
    const x = await session(t, dialect);
    const id = nextId();
    const apiKey = `polar_oat_${id}`;
    const polar = () => nock("https://api.polar.sh").matchHeader("authorization", `Bearer ${apiKey}`);
    polar()
      .get("/v1/organizations/")
      .query(true)
      .reply(200, { items: [{ id: `org_${id}`, name: "Acme Inc" }], pagination: { max_page: 1 } });
    polar()
      .get("/v1/orders/")
      .query({ limit: "1" })
      .reply(200, { items: [], pagination: { max_page: 1 } });
    const order = (n: number, email: string, daysAgo: number) => ({
      id: `ord_${n}`,
      created_at: new Date(x.s.api.clock.now().getTime() - daysAgo * 86_400_000).toISOString(),
      status: "paid",
      paid: true,
      total_amount: 1000 * n,
      currency: "eur",
      customer: { id: `cus_${email}`, email, name: null },
      product: { id: "prod_1", name: "Pro plan" },
    });
    polar()
      .get("/v1/orders/")
      .query({ page: "1", limit: "100", sorting: "created_at" })
      .reply(200, {
        items: [order(1, "ann@example.com", 40), order(2, "bob@example.com", 30), { ...order(3, "bob@example.com", 20), status: "pending", paid: false }],
        pagination: { total_count: 4, max_page: 2 },
      });
    polar()
      .get("/v1/orders/")
      .query({ page: "2", limit: "100", sorting: "created_at" })
      .reply(200, { items: [order(1001, "ada@example.com", 0)], pagination: { total_count: 4, max_page: 2 } });

    const connected = await x.call("POST", CONNECT, { body: { provider: "polar", apiKey, webhookSecret: `secret_${id}` } });
    t.is(connected.status, 200);
    t.true(connected.body.revenueSyncQueued);
    const integrationId = connected.body.integration.id;
    const busy = await x.call("POST", `/api/v1/integrations/${integrationId}/sync`);
    t.is(busy.status, 409);
    t.deepEqual(busy.body, { success: false, error: "A sync of this integration is already queued or running" });

    // The webhook of order 1001 arrives before the sync reaches it.
    const delivery = providerDelivery("polar", "ada@example.com", x.s.api.clock.now(), "1001");
    const raw = JSON.stringify(delivery.body);
    t.is((await x.webhook("polar", x.a.companyId, raw, signWebhook("polar", `secret_${id}`, raw, x.s.api.clock.now(), delivery.eventId))).status, 200);

    await x.runJobs();
    const got = await x.call("GET", `/api/v1/integrations/${integrationId}`);
    t.like(got.body.integration, { syncStatus: "succeeded", lastSyncError: null, lastSyncSkipped: 1, details: { lastSyncKind: "revenue" } });
    t.deepEqual(
      (await x.events("ann@example.com")).map((event) => [event.name, event.properties.total, event.properties.currency]),
      [["ecommerce.order_placed", 1000, "eur"]],
    );
    t.is((await x.events("bob@example.com")).length, 1, "the pending order is skipped");
    t.is((await x.events("ada@example.com")).length, 1, "the order the webhook brought is recorded once");

    nock("https://api.polar.sh").matchHeader("authorization", `Bearer ${apiKey}`).get("/v1/orders/").query(true).reply(401, { error: "invalid_token" });
    const rerun = await x.call("POST", `/api/v1/integrations/${integrationId}/sync`);
    t.like(rerun.body, { success: true, integrationId, provider: "polar", syncStatus: "queued", syncTarget: "revenue history" });
    await x.runJobs();
    const failed = (await x.call("GET", `/api/v1/integrations/${integrationId}`)).body.integration;
    t.is(failed.syncStatus, "failed");
    t.regex(failed.lastSyncError, /Polar refused the stored credentials/);
  });

  for (const provider of ["paddle", "dodo", "whop", "creem", "chargebee", "affonso"] as const) {
    test(name(`${provider}: the sync reads the provider's history page and records it for the customer`), async (t) => {
      const x = await session(t, dialect);
      const id = nextId();
      const at = new Date(x.s.api.clock.now().getTime() - 10 * 86_400_000);
      const email = `buyer-${provider}@example.com`;
      const { body, pages, expected } = syncedHistory(provider, id, email, at);
      pages();
      const connected = await x.call("POST", CONNECT, { body });
      t.is(connected.status, 200, JSON.stringify(connected.body));
      t.true(connected.body.revenueSyncQueued ?? connected.body.backfillQueued);
      await x.runJobs();
      t.like((await x.call("GET", `/api/v1/integrations/${connected.body.integration.id}`)).body.integration, { syncStatus: "succeeded", lastSyncError: null });
      t.deepEqual(
        (await x.events(email)).map((event) => [event.name, event.properties.total ?? event.properties.referralId]),
        [expected],
      );
    });
  }

  test(name("posthog: settings pick the events; the history import is checked, queued and paged"), async (t) => {
    const x = await session(t, dialect);
    const id = nextId();
    const personalApiKey = `phx_${id}`;
    const posthog = () => nock("https://eu.posthog.com").matchHeader("authorization", `Bearer ${personalApiKey}`);
    posthog()
      .post(`/api/projects/4242/query/`, (body) => body.query.query === "select 1")
      .reply(200, { results: [[1]], columns: ["1"] });
    const at = new Date(x.s.api.clock.now().getTime() - 3 * 86_400_000).toISOString();
    posthog()
      .post(`/api/projects/4242/query/`, (body) => String(body.query.query).includes("offset 0"))
      .reply(200, {
        columns: ["uuid", "event", "distinct_id", "properties", "timestamp", "person.properties"],
        results: [
          ["0190-aaaa", "report_exported", "d-1", JSON.stringify({ format: "pdf" }), at, JSON.stringify({ email: "ann@example.com" })],
          ["0190-bbbb", "$pageview", "d-1", "{}", at, JSON.stringify({ email: "ann@example.com" })],
          ["0190-cccc", "report_exported", "d-2", "{}", at, "{}"],
          ["0190-dddd", "plan_upgraded", "d-3", "{}", at, JSON.stringify({ email: "bob@example.com" })],
        ],
      });
    const connected = await x.call("POST", CONNECT, {
      body: {
        provider: "posthog",
        webhookSecret: `shared-secret-${id}`,
        settings: { syncAllEvents: false, eventAllowlist: ["report_exported", "$pageview"] },
        historyImport: { region: "eu", projectId: "4242", personalApiKey },
      },
    });
    t.is(connected.status, 200);
    t.deepEqual(connected.body.history, { requested: true, queued: true, error: null });
    t.like(connected.body.integration, {
      provider: "posthog",
      providerAccountId: "eu:4242",
      details: { syncAllEvents: false, eventAllowlist: ["report_exported", "$pageview"] },
    });
    t.false(JSON.stringify(connected.body).includes(personalApiKey));
    await x.runJobs();
    t.deepEqual((await x.events("ann@example.com")).map((event) => event.name).sort(), ["$pageview", "report_exported"]);
    t.is((await x.contact("bob@example.com")).status, 404, "plan_upgraded is not allow-listed");
    t.like((await x.call("GET", `/api/v1/integrations/${connected.body.integration.id}`)).body.integration, { syncStatus: "succeeded", lastSyncSkipped: 2 });

    const refusedKey = `phx_bad_${id}`;
    nock("https://us.posthog.com")
      .matchHeader("authorization", `Bearer ${refusedKey}`)
      .post("/api/projects/7/query/")
      .reply(403, { detail: "missing scope query:read" });
    const weak = await x.call(
      "POST",
      CONNECT,
      { body: { provider: "posthog", webhookSecret: `shared-secret-${id}-b`, historyImport: { region: "us", projectId: "7", personalApiKey: refusedKey } } },
      x.b,
    );
    t.is(weak.status, 400);
    t.regex(weak.body.error, /missing read permission \(query:read\)/);
  });

  test(name("the catalog lists the nine providers, filtered by provider or category"), async (t) => {
    const x = await session(t, dialect);
    const all = await x.call("GET", "/api/v1/integrations/catalog");
    t.deepEqual(
      all.body.providers.map((provider: { provider: string }) => provider.provider),
      [...PROVIDERS],
    );
    const payments = await x.call("GET", "/api/v1/integrations/catalog?category=payments");
    t.is(payments.body.providers.length, 6);
    const chargebee = (await x.call("GET", "/api/v1/integrations/catalog?provider=chargebee")).body.providers[0];
    t.like(chargebee, { provider: "chargebee", category: "payments", connectMethod: "api_key" });
    t.deepEqual(
      chargebee.connectFields.map((field: { name: string }) => field.name),
      ["webhookSecret", "apiKey", "providerAccountId"],
    );
    t.is((await x.call("GET", "/api/v1/integrations/catalog?category=rockets")).status, 422);
  });
}
