import test, { type ExecutionContext } from "ava";
import { simpleParser, type ParsedMail } from "mailparser";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { createLogger } from "../../../hosts/logger.js";
import { startRuntime, type Runtime } from "../../../hosts/runtime.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { call, type RequestOptions } from "../../helpers/http-client.js";
import { BASE_URL, listen, TEST_CAPACITY } from "../../helpers/runtime.js";
import { smtpSink, type Received } from "../../helpers/smtp-sink.js";

const SENDER = "news@brand.example";

interface Setup {
  readonly runtime: Runtime;
  readonly received: Received[];
  readonly company: CompanyFixture;
  readonly other: CompanyFixture;
  readonly url: string;
  api(method: string, path: string, options?: RequestOptions, key?: string): ReturnType<typeof call>;
  messages(count: number): Promise<ParsedMail[]>;
}

/** The real app, the real worker and a real SMTP server on loopback; a company that can send, and another company. */
async function setUp(t: ExecutionContext, dialect: Dialect): Promise<Setup> {
  const sink = await smtpSink(t);
  const database = await dialect.create();
  const runtime = await startRuntime({
    databaseUrl: database.url,
    logger: createLogger("silent"),
    baseUrl: BASE_URL,
    mailUrl: `smtp://127.0.0.1:${sink.port}`,
    capacity: TEST_CAPACITY,
  });
  const server = await listen(runtime);
  const worker = createWorker(runtime.container, { concurrency: 2, pollMs: 20 });
  await worker.start();
  t.teardown(async () => {
    await worker.stop();
    await server.close();
    await runtime.close();
    await database.drop();
  });
  const company = await createCompanyFixture(runtime.container, { name: "Brand & Co" });
  const other = await createCompanyFixture(runtime.container, { name: "Other" });
  const made = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, SENDER);
  if (made._tag === "Left") throw new Error(made.left.message);
  return {
    runtime,
    received: sink.received,
    company,
    other,
    url: server.url,
    api: (method, path, options = {}, key = company.ownerKey) => call(server.url, method, path, { ...options, key }),
    async messages(count) {
      const deadline = Date.now() + 15_000;
      while (sink.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return Promise.all(sink.received.map((message) => simpleParser(message.raw)));
    },
  };
}

const CAMPAIGN = {
  name: "Spring sale",
  subject: "Spring sale for {{ firstName }}",
  blocks: [
    { type: "text", content: "Use {{ promoCode }} today." },
    { type: "button", text: "Shop", url: "https://brand.example/shop" },
  ],
  campaignData: { promoCode: "SPRING25" },
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: campaign test send ${title}`;

  test(name("goes out through the pipeline as a recipient would get it, and counts in no metric"), async (t) => {
    const s = await setUp(t, dialect);
    t.is((await s.api("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann" } })).status, 200);
    const campaign = (await s.api("POST", "/api/v1/campaigns", { body: CAMPAIGN })).body.campaign;

    const sent = await s.api("POST", `/api/v1/campaigns/${campaign.id}/test`, { body: { to: " Ann@Example.com " } });
    t.is(sent.status, 200, JSON.stringify(sent.body));
    t.deepEqual(Object.keys(sent.body).sort(), ["emailSendId", "recipientEmail", "success"]);
    t.is(sent.body.recipientEmail, "ann@example.com");

    const [message] = await s.messages(1);
    t.is(message!.subject, "Spring sale for Ann", "the contact of that address fills the merge tags");
    t.is(message!.from!.value[0]!.address, SENDER);
    t.deepEqual(s.received[0]!.to, ["ann@example.com"]);
    const html = message!.html as string;
    t.regex(html, /Use SPRING25 today\./, "campaignData fills the rest");
    t.regex(html, new RegExp(`${BASE_URL}/t/c/`), "links are tracked as in the real send");
    t.notRegex(html, /href="https:\/\/brand\.example\/shop"/);

    // The worker marks it sent; it is a campaign send of this campaign, flagged as a test.
    const row = async () => s.runtime.knex("email_sends").where({ id: sent.body.emailSendId }).first();
    for (const deadline = Date.now() + 10_000; (await row()).status !== "sent" && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 25));
    t.like(await row(), { status: "sent", email_type: "campaign", campaign_id: campaign.id });
    t.true(Boolean((await row()).is_test));

    // Ann opens it and clicks: the test send records both, yet no figure counts them.
    const pixel = /src="([^"]*\/t\/o\/[^"]+\.gif)"/.exec(html)![1]!;
    const click = /href="([^"]*\/t\/c\/[^"]+)"/.exec(html)![1]!;
    const browser = { "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15" };
    t.is((await fetch(pixel.replace(BASE_URL, s.url), { headers: browser })).status, 200);
    t.is((await fetch(click.replace(BASE_URL, s.url), { headers: browser, redirect: "manual" })).status, 302);
    const recorded = await row();
    t.truthy(recorded.first_opened_at, "the open is recorded on the test send");
    t.truthy(recorded.first_clicked_at, "the click too");

    const campaignStats = (await s.api("GET", `/api/v1/campaigns/${campaign.id}`)).body.campaign.stats;
    t.like(campaignStats, { sent: 0, opened: 0, clicked: 0 });
    const metrics = await s.api("GET", `/api/v1/metrics/campaigns/${campaign.id}?includeMachineEngagement=true`);
    t.is(metrics.status, 200);
    t.like(metrics.body.stats, { sent: 0, delivered: 0, opened: 0, clicked: 0 });
    t.deepEqual(metrics.body.clickedLinks, []);
    t.deepEqual(metrics.body.engagementBreakdown, { human: { opens: 0, clicks: 0 }, machine: { opens: 0, clicks: 0 } });
    const events = await s.api("GET", `/api/v1/metrics/campaigns/${campaign.id}/events?eventTypes=send,open,click&includeMachineEngagement=true`);
    t.deepEqual(events.body.events, []);
    t.like((await s.api("GET", "/api/v1/metrics?period=24h&includeMachineEngagement=true")).body.stats, { sent: 0, opened: 0, clicked: 0 });
    t.deepEqual((await s.api("GET", "/api/v1/metrics/emails")).body.emails, []);
  });

  test(name("is refused clearly for bad input, another company's campaign or a campaign without content, and nothing is sent"), async (t) => {
    const s = await setUp(t, dialect);
    const campaign = (await s.api("POST", "/api/v1/campaigns", { body: CAMPAIGN })).body.campaign;
    const empty = (await s.api("POST", "/api/v1/campaigns", { body: { name: "Empty", subject: "No body yet" } })).body.campaign;
    const path = `/api/v1/campaigns/${campaign.id}/test`;

    const bad = await s.api("POST", path, { body: { to: "not-an-address" } });
    t.deepEqual([bad.status, bad.body.success, bad.body.errors?.[0]?.path], [422, false, "to"]);
    const missing = await s.api("POST", path, { body: {} });
    t.deepEqual([missing.status, missing.body.errors?.[0]?.path], [422, "to"]);
    const nothing = await s.api("POST", `/api/v1/campaigns/${empty.id}/test`, { body: { to: "ann@example.com" } });
    t.deepEqual([nothing.status, nothing.body.error], [400, "The campaign has no content to render yet: give it a subject and html or blocks"]);
    const theirs = await s.api("POST", path, { body: { to: "ann@example.com" } }, s.other.ownerKey);
    t.deepEqual([theirs.status, theirs.body], [404, { success: false, error: "Campaign not found" }]);
    const unknown = await s.api("POST", "/api/v1/campaigns/cmp_missing/test", { body: { to: "ann@example.com" } });
    t.is(unknown.status, 404);

    t.is(Number((await s.runtime.knex("email_sends").count({ n: "*" }).first())!.n), 0, "no send was queued");
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.is(s.received.length, 0);
  });
}
