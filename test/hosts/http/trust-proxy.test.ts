import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { ManualClock } from "../../../adapters/memory/manual-clock.js";
import { TrackingLinks } from "../../../core/tracking/tracking-links.js";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import type { TrustProxy } from "../../../hosts/config.js";
import { Database } from "../../../hosts/tokens.js";
import { dialects } from "../../helpers/databases.js";
import { BASE_URL, listen, startTestRuntime } from "../../helpers/runtime.js";

const CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const VISITOR = "203.0.113.7";

/** Opens a tracked send's pixel through the real app, as a proxy would forward it, and returns the address tracking recorded. */
async function recordedOpenAddress(t: ExecutionContext, trustProxy?: TrustProxy): Promise<string> {
  const [sqlite] = dialects();
  const database = await sqlite!.create();
  const runtime = await startTestRuntime(database, new ManualClock("2026-11-22T10:00:00.000Z"));
  const server = await listen(runtime, trustProxy === undefined ? {} : { trustProxy });
  t.teardown(async () => {
    await server.close();
    await runtime.close();
    await database.drop();
  });
  const company = await createCompanyFixture(runtime.container, { name: "Acme" });
  const knex = runtime.container.get<Knex>(Database);
  const at = toDbDate(new Date("2026-11-22T09:00:00.000Z"));
  await knex("email_sends").insert({
    id: "send_proxy",
    company_id: company.companyId,
    recipient_email: "ann@example.com",
    email_type: "campaign",
    subject: "Hello",
    sender_email: "news@acme.example",
    status: "sent",
    mailbox_provider: "other",
    sent_at: at,
    created_at: at,
    updated_at: at,
  });
  const pixel = runtime.container.get(TrackingLinks).forSend("send_proxy").openPixelUrl;
  const response = await fetch(pixel.replace(BASE_URL, server.url), { headers: { "user-agent": CHROME, "x-forwarded-for": VISITOR } });
  t.is(response.status, 200);
  const events = await knex("email_events").where({ email_send_id: "send_proxy", event_type: "open" }).pluck("ip");
  t.is(events.length, 1);
  return events[0] as string;
}

test("without TRUST_PROXY an X-Forwarded-For header is ignored: tracking records the connecting address", async (t) => {
  t.regex(await recordedOpenAddress(t), /^(::ffff:)?127\.0\.0\.1$/);
});

test("with TRUST_PROXY naming the proxy, tracking records the visitor's forwarded address", async (t) => {
  t.is(await recordedOpenAddress(t, ["loopback"]), VISITOR);
});

test("with TRUST_PROXY as a hop count, the forwarded address is believed", async (t) => {
  t.is(await recordedOpenAddress(t, 1), VISITOR);
});

test("a proxy TRUST_PROXY does not name is not believed", async (t) => {
  t.regex(await recordedOpenAddress(t, ["10.0.0.1"]), /^(::ffff:)?127\.0\.0\.1$/);
});
