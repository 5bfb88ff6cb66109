import test, { type ExecutionContext } from "ava";
import { simpleParser } from "mailparser";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { createLogger } from "../../../hosts/logger.js";
import { startRuntime } from "../../../hosts/runtime.js";
import { call } from "../../helpers/http-client.js";
import { BASE_URL, listen, TEST_CAPACITY } from "../../helpers/runtime.js";
import { smtpSink } from "../../helpers/smtp-sink.js";
import { waitFor } from "../../helpers/worker-process.js";
import { unkeyedBatchJob } from "../../../core/campaigns/send-jobs.js";
import { CampaignSendRepository } from "../../../core/campaigns/send-ports.js";
import { StartCampaignSend } from "../../../core/campaigns/start-campaign-send.js";
import { ACTIVE_SENDING } from "../../../core/sending-health/model.js";
import { SendingStatusRepository } from "../../../core/sending-health/ports.js";
import { JobQueue } from "../../../core/ports/job-queue.js";
import { SuppressionRepository } from "../../../core/suppressions/ports.js";
import type { CompanyFixture } from "../../../fixtures/companies.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { MINUTE, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

const HOUR = 60 * MINUTE;
/** The manual clock starts at 2026-11-22T10:00:00.000Z. */
const IN_AN_HOUR = "2026-11-22T11:00:00.000Z";

const NEWS = {
  name: "November news",
  subject: "Hello {{ firstName }}",
  previewText: "What's new",
  blocks: [{ type: "text", content: "Hi {{ firstName }}, here is the news." }],
};

async function contact(s: SequenceSession, email: string, firstName: string, company?: CompanyFixture, extra: Record<string, unknown> = {}): Promise<void> {
  const made = await s.call("POST", "/api/v1/subscribers", { body: { email, firstName, ...extra } }, company);
  if (made.status !== 200) throw new Error(JSON.stringify(made.body));
}

async function campaign(s: SequenceSession, body: Record<string, unknown> = {}, company?: CompanyFixture): Promise<string> {
  const made = await s.call("POST", "/api/v1/campaigns", { body: { ...NEWS, ...body } }, company);
  if (made.status !== 200) throw new Error(JSON.stringify(made.body));
  return made.body.campaign.id;
}

async function schedule(s: SequenceSession, id: string, body: Record<string, unknown> = {}, company?: CompanyFixture): Promise<void> {
  const scheduled = await s.call("POST", `/api/v1/campaigns/${id}/schedule`, { body: { scheduledAt: IN_AN_HOUR, ...body } }, company);
  if (scheduled.status !== 200) throw new Error(JSON.stringify(scheduled.body));
}

/** The campaign's messages (subject "Hello ..."), by address: confirmation emails left out. */
function newsReceived(s: SequenceSession): Record<string, string[]> {
  const received = s.received();
  const news: Record<string, string[]> = {};
  for (const [address, subjects] of Object.entries(received)) {
    const hello = subjects.filter((subject) => subject.startsWith("Hello"));
    if (hello.length > 0) news[address] = hello;
  }
  return news;
}

const get = async (s: SequenceSession, id: string) => (await s.call("GET", `/api/v1/campaigns/${id}`)).body.campaign;

/** The real app and the real worker (real clock) delivering to an SMTP server on loopback. */
async function smtpSetUp(t: ExecutionContext, dialect: Dialect) {
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
  const company = await createCompanyFixture(runtime.container, { name: "Acme" });
  const made = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, "hello@acme.example");
  if (made._tag === "Left") throw new Error(made.left.message);
  const api = (method: string, path: string, body?: unknown) =>
    call(server.url, method, path, { key: company.ownerKey, ...(body === undefined ? {} : { body }) });
  return { sink, runtime, api };
}

const NO_EXCLUSIONS = { unsubscribed: 0, bounced: 0, suppressed: 0, unconfirmed: 0, duplicate: 0, deleted: 0 };

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: campaign sends ${title}`;

  test(
    name("start at scheduledAt: each eligible contact gets one personalised message; the others are counted by reason; progress, stats and sent"),
    async (t) => {
      const s = await sequenceSession(t, dialect);
      await contact(s, "ann@example.com", "Ann");
      await contact(s, "bob@example.com", "Bob");
      await contact(s, "carl@example.com", "Carl");
      await contact(s, "dora@example.com", "Dora");
      await contact(s, "eve@example.com", "Eve", undefined, { optInMode: "double_opt_in" });
      await contact(s, "other@example.com", "Other", s.b);
      t.is((await s.call("PATCH", "/api/v1/subscribers/carl@example.com", { body: { status: "unsubscribed" } })).status, 200);
      await s.api.runtime.container
        .get<SuppressionRepository>(SuppressionRepository)
        .add({ companyId: s.a.companyId, email: "dora@example.com", reason: "manual", emailSendId: null, at: s.api.clock.now() });
      const id = await campaign(s);
      await schedule(s, id);

      await s.runJobs();
      t.deepEqual(newsReceived(s), {}, "nothing before scheduledAt");
      t.like(await get(s, id), { status: "scheduled", progress: null });

      s.api.clock.advance(HOUR);
      await s.runJobs();
      t.deepEqual(newsReceived(s), { "ann@example.com": ["Hello Ann"], "bob@example.com": ["Hello Bob"] });
      const ann = s.transport.messages.find(({ message }) => message.to === "ann@example.com")!.message;
      t.regex(ann.html!, /Hi Ann, here is the news\./);
      t.is(ann.from.email, "hello@acme.example");
      t.truthy(ann.headers?.["List-Unsubscribe"], "a campaign is marketing mail: it carries List-Unsubscribe");

      const sent = await get(s, id);
      t.is(sent.status, "sent");
      t.is(sent.sentAt, "2026-11-22T11:00:00.000Z");
      t.deepEqual(sent.progress, {
        startedAt: "2026-11-22T11:00:00.000Z",
        recipients: 2,
        queued: 2,
        sent: 2,
        remaining: 0,
        excluded: { ...NO_EXCLUSIONS, unsubscribed: 1, suppressed: 1, unconfirmed: 1 },
      });
      t.like(sent.stats, { sent: 2 });
      const sends = await s.api.runtime.knex("email_sends").where({ campaign_id: id });
      t.is(sends.length, 2);
      t.true(sends.every((send) => send.email_type === "campaign" && send.company_id === s.a.companyId));
      t.like((await s.call("GET", "/api/v1/metrics?emailType=campaign")).body.stats, { sent: 2 });

      // The other company's contact got nothing, and it cannot pause or resume this campaign.
      t.false("other@example.com" in s.received());
      for (const move of ["pause", "resume"]) {
        const refused = await s.call("POST", `/api/v1/campaigns/${id}/${move}`, {}, s.b);
        t.is(refused.status, 404);
        t.is(refused.body.error, "Campaign not found");
      }
      // A sent campaign is no longer pausable: 400 naming its state, nothing changes.
      const late = await s.call("POST", `/api/v1/campaigns/${id}/pause`);
      t.is(late.status, 400);
      t.like(late.body, { success: false, code: "INVALID_CAMPAIGN_STATE", status: "sent", error: "Campaign is sent: only sending campaigns can be paused" });
    },
  );

  test(name("scheduled for now it starts at once; a campaign targeting a list reaches only its members"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "VIP" } })).body.list;
    await contact(s, "ann@example.com", "Ann", undefined, { lists: [list.id] });
    await contact(s, "bob@example.com", "Bob");
    const id = await campaign(s, { listIds: [list.id] });
    await schedule(s, id, { scheduledAt: s.api.clock.now().toISOString() });
    await s.runJobs();
    t.deepEqual(newsReceived(s), { "ann@example.com": ["Hello Ann"] });
    t.like(await get(s, id), { status: "sent", progress: { recipients: 1, sent: 1, remaining: 0 } });
  });

  test(name("spreadOverHours spreads batches evenly; the audience is frozen at the start; one who unsubscribes before their batch is skipped"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const people: Array<[string, string]> = [
      ["ann@example.com", "Ann"],
      ["bob@example.com", "Bob"],
      ["cat@example.com", "Cat"],
    ];
    for (const [email, first] of people) await contact(s, email, first);
    const id = await campaign(s);
    await schedule(s, id, { spreadOverHours: 1 });
    s.api.clock.advance(HOUR);
    await s.runJobs();

    // Three recipients over an hour: one batch now, one in 30 minutes, the last at the end of the hour.
    const first = Object.keys(newsReceived(s));
    t.is(first.length, 1);
    t.like(await get(s, id), { status: "sending", spreadOverHours: 1, progress: { recipients: 3, queued: 1, sent: 1, remaining: 2 } });
    await contact(s, "late@example.com", "Late");
    const [leaving] = ["ann@example.com", "bob@example.com", "cat@example.com"].filter((email) => !first.includes(email));
    t.is((await s.call("PATCH", `/api/v1/subscribers/${leaving}`, { body: { status: "unsubscribed" } })).status, 200);

    s.api.clock.advance(30 * MINUTE - 1);
    await s.runJobs();
    t.is(Object.keys(newsReceived(s)).length, 1, "not before its time");
    s.api.clock.advance(1);
    await s.runJobs();
    s.api.clock.advance(30 * MINUTE);
    await s.runJobs();
    s.api.clock.advance(MINUTE);
    await s.runJobs();

    const received = newsReceived(s);
    t.is(Object.keys(received).length, 2);
    t.false(leaving! in received, "unsubscribed before their batch");
    t.false("late@example.com" in received, "added after the send started");
    t.true(Object.values(received).every((subjects) => subjects.length === 1));
    t.like(await get(s, id), {
      status: "sent",
      progress: { recipients: 3, queued: 2, sent: 2, remaining: 0, excluded: { ...NO_EXCLUSIONS, unsubscribed: 1 } },
    });
  });

  test(
    name("pause only while sending, resume from the next batch (spread anew), illegal moves name the state; cancel stops the remaining batches"),
    async (t) => {
      const s = await sequenceSession(t, dialect);
      const emails = ["a1@example.com", "a2@example.com", "a3@example.com", "a4@example.com"];
      for (const email of emails) await contact(s, email, "Reader");
      const id = await campaign(s);

      const draft = await s.call("POST", `/api/v1/campaigns/${id}/pause`);
      t.is(draft.status, 400);
      t.like(draft.body, { code: "INVALID_CAMPAIGN_STATE", status: "draft", error: "Campaign is draft: only sending campaigns can be paused" });

      await schedule(s, id, { spreadOverHours: 1 });
      s.api.clock.advance(HOUR);
      await s.runJobs();
      t.is(Object.keys(newsReceived(s)).length, 1);
      const notPaused = await s.call("POST", `/api/v1/campaigns/${id}/resume`);
      t.is(notPaused.status, 400);
      t.like(notPaused.body, { code: "INVALID_CAMPAIGN_STATE", status: "sending", error: "Campaign is sending: only paused campaigns can be resumed" });

      const paused = await s.call("POST", `/api/v1/campaigns/${id}/pause`);
      t.is(paused.status, 200, JSON.stringify(paused.body));
      t.like(paused.body.campaign, { status: "paused", progress: { recipients: 4, queued: 1, remaining: 3 } });
      s.api.clock.advance(2 * HOUR);
      await s.runJobs();
      t.is(Object.keys(newsReceived(s)).length, 1, "nothing goes out while paused");
      t.like(await s.call("POST", `/api/v1/campaigns/${id}/pause`), { status: 400, body: { status: "paused" } });
      t.like(await s.call("POST", `/api/v1/campaigns/${id}/resume`, { body: { spreadOverHours: 0 } }), { status: 422 });

      // Resumed over 2 hours: three left, one now, then every hour.
      const resumed = await s.call("POST", `/api/v1/campaigns/${id}/resume`, { body: { spreadOverHours: 2 } });
      t.is(resumed.status, 200, JSON.stringify(resumed.body));
      t.like(resumed.body.campaign, { status: "sending", spreadOverHours: 2 });
      await s.runJobs();
      t.is(Object.keys(newsReceived(s)).length, 2);
      s.api.clock.advance(HOUR);
      await s.runJobs();
      t.is(Object.keys(newsReceived(s)).length, 3);

      const cancelled = await s.call("POST", `/api/v1/campaigns/${id}/cancel`);
      t.is(cancelled.status, 200);
      s.api.clock.advance(2 * HOUR);
      await s.runJobs();
      t.is(Object.keys(newsReceived(s)).length, 3, "the last batch never goes");
      t.like(await get(s, id), { status: "cancelled", progress: { recipients: 4, queued: 3, sent: 3, remaining: 0 } });
      t.like(await s.call("POST", `/api/v1/campaigns/${id}/resume`), { status: 400, body: { status: "cancelled" } });
    },
  );

  test(name("a pause that lands between two parts of a batch records no more of it; the resume sends the rest, each contact once"), async (t) => {
    const s = await sequenceSession(t, dialect, { campaignSends: { batchSize: 120, perCompany: null, perServer: null } });
    const emails = Array.from({ length: 130 }, (_, i) => `reader${String(i).padStart(3, "0")}@example.com`);
    for (const email of emails) await contact(s, email, "Reader");
    const id = await campaign(s);
    await schedule(s, id);

    // The pause arrives while the first batch (120) is being recorded, after its first part (50).
    const sends = s.api.runtime.container.get<CampaignSendRepository>(CampaignSendRepository);
    const recordBatch = sends.recordBatch.bind(sends);
    let parts = 0;
    sends.recordBatch = async (input) => {
      const recorded = await recordBatch(input);
      if (recorded && ++parts === 1) t.is((await s.call("POST", `/api/v1/campaigns/${id}/pause`)).status, 200);
      return recorded;
    };
    s.api.clock.advance(HOUR);
    await s.runJobs();
    t.is(parts, 1, "the batch's second part found the campaign paused");
    t.like(await get(s, id), { status: "paused", progress: { recipients: 130, queued: 50, remaining: 80 } });
    t.is((await s.api.runtime.knex("email_sends").where({ campaign_id: id })).length, 50);

    t.is((await s.call("POST", `/api/v1/campaigns/${id}/resume`)).status, 200);
    await s.runJobs();
    const received = newsReceived(s);
    t.deepEqual(Object.keys(received).sort(), emails, "every contact got the campaign");
    t.true(
      Object.values(received).every((subjects) => subjects.length === 1),
      "and once",
    );
    t.like(await get(s, id), { status: "sent", progress: { recipients: 130, queued: 130, sent: 130, remaining: 0 } });
  });

  test(name("a batch run twice, or by two jobs at once, sends each contact one message; the database refuses a second send to a contact"), async (t) => {
    const s = await sequenceSession(t, dialect);
    for (let n = 1; n <= 5; n += 1) await contact(s, `r${n}@example.com`, `R${n}`);
    const id = await campaign(s);
    await schedule(s, id);
    s.api.clock.advance(HOUR);
    t.true(await s.api.runtime.container.get(StartCampaignSend).start(s.a.companyId, id));
    t.false(await s.api.runtime.container.get(StartCampaignSend).start(s.a.companyId, id), "started once");
    const queue = s.api.runtime.container.get<JobQueue>(JobQueue);
    // Copies of the first batch's job, as a retry or another worker would run it, run by two workers at once.
    await queue.enqueue(unkeyedBatchJob(s.a.companyId, id, 0, s.api.clock.now()));
    await queue.enqueue(unkeyedBatchJob(s.a.companyId, id, 0, s.api.clock.now()));
    const second = createWorker(s.api.runtime.container, { concurrency: 2 }, { push: false });
    await Promise.all([s.runJobs(), second.runDue()]);
    // The finish check may have run while the other worker was still delivering: it looks again a second later.
    s.api.clock.advance(MINUTE);
    await s.runJobs();
    const received = newsReceived(s);
    t.is(Object.keys(received).length, 5);
    t.true(Object.values(received).every((subjects) => subjects.length === 1));
    t.like(await get(s, id), { status: "sent", progress: { recipients: 5, queued: 5, sent: 5 } });

    const [one] = await s.api.runtime.knex("email_sends").where({ campaign_id: id }).limit(1);
    const refused = await s.api.runtime
      .knex("email_sends")
      .insert({ ...one, id: "send_duplicate_of_one" })
      .then(
        () => "inserted",
        (error: { message?: string }) => String(error.message),
      );
    t.regex(refused, /unique|duplicate key/i, "one real send per campaign and contact");
    // A test send to the same contact is allowed.
    await s.api.runtime.knex("email_sends").insert({ ...one, id: "send_test_of_one", is_test: true });
  });

  test(name("a company paused for sending health holds its campaign batches; they go out after it resumes"), async (t) => {
    const s = await sequenceSession(t, dialect);
    await contact(s, "ann@example.com", "Ann");
    await contact(s, "bob@example.com", "Bob");
    const id = await campaign(s);
    await schedule(s, id);
    const status = s.api.runtime.container.get<SendingStatusRepository>(SendingStatusRepository);
    await status.change(
      s.a.companyId,
      () => ({ ...ACTIVE_SENDING, status: "paused", pauseReasonKind: "high_hard_bounce_rate", pauseReason: "test pause", pausedAt: s.api.clock.now() }),
      s.api.clock.now(),
    );
    s.api.clock.advance(HOUR);
    await s.runJobs();
    t.deepEqual(newsReceived(s), {});
    t.like(await get(s, id), { status: "sending", progress: { recipients: 2, queued: 2, sent: 0, remaining: 2 } });
    t.is((await s.call("GET", "/api/v1/sending-status")).body.heldSends, 2);

    const resumed = await s.call("POST", "/api/v1/sending-status/resume", { body: { listSanitizationConfirmed: true } });
    t.is(resumed.status, 200, JSON.stringify(resumed.body));
    await s.runJobs();
    s.api.clock.advance(MINUTE);
    await s.runJobs();
    t.deepEqual(newsReceived(s), { "ann@example.com": ["Hello Ann"], "bob@example.com": ["Hello Bob"] });
    t.like(await get(s, id), { status: "sent", progress: { sent: 2, remaining: 0 } });
  });

  test(name("a campaign whose sender can no longer send is paused with the reason, not retried; a resume after the fix sends it"), async (t) => {
    const s = await sequenceSession(t, dialect);
    await contact(s, "ann@example.com", "Ann");
    await contact(s, "bob@example.com", "Bob");
    const id = await campaign(s);
    await schedule(s, id);
    // The company removes its only sending domain after scheduling.
    t.is((await s.call("DELETE", "/api/v1/sending-domains/acme.example")).status, 200);
    s.api.clock.advance(HOUR);
    await s.runJobs();
    t.deepEqual(newsReceived(s), {});
    const paused = await get(s, id);
    t.like(paused, { status: "paused", progress: { recipients: 2, sent: 0 } });
    t.regex(paused.pauseReason, /^No verified sender/);
    const retrying = await s.api.runtime.knex("jobs").where({ type: "campaigns.batch" }).whereNot({ status: "completed" }).count({ n: "*" }).first();
    t.is(Number(retrying!.n), 0, "no batch job is left retrying");

    // Fixed: the domain is back and verified; a resume sends from where it stopped.
    const sender = await s.api.runtime.container.get(SetUpOperatorSender).execute(OPERATOR, s.a.companyId, "hello@acme.example");
    t.is(sender._tag, "Right");
    const resumed = await s.call("POST", `/api/v1/campaigns/${id}/resume`);
    t.is(resumed.status, 200, JSON.stringify(resumed.body));
    t.like(resumed.body.campaign, { status: "sending", pauseReason: null });
    await s.runJobs();
    s.api.clock.advance(MINUTE);
    await s.runJobs();
    t.deepEqual(newsReceived(s), { "ann@example.com": ["Hello Ann"], "bob@example.com": ["Hello Bob"] });
    t.like(await get(s, id), { status: "sent", pauseReason: null, progress: { sent: 2, remaining: 0 } });
  });

  test(name("sendInRecipientTimezone: 09:00 in each contact's timezone (else the campaign's); the send starts where clocks are furthest ahead"), async (t) => {
    const s = await sequenceSession(t, dialect);
    await contact(s, "tokyo@example.com", "Tokyo", undefined, { timezone: "Asia/Tokyo" });
    await contact(s, "ny@example.com", "York", undefined, { timezone: "America/New_York" });
    await contact(s, "plain@example.com", "Plain");
    const id = await campaign(s);
    await schedule(s, id, { scheduledAt: "2026-11-23T09:00:00.000Z", scheduledTimezone: "Europe/London", sendInRecipientTimezone: true });
    const at = async (iso: string) => {
      s.api.clock.set(new Date(iso));
      await s.runJobs();
      return Object.keys(newsReceived(s)).sort();
    };
    t.deepEqual(await at("2026-11-22T18:59:00.000Z"), []);
    t.deepEqual(await at("2026-11-22T19:00:00.000Z"), [], "started (09:00 at UTC+14), nobody due yet");
    t.like(await get(s, id), { status: "sending", progress: { recipients: 3, queued: 0, remaining: 3 } });
    t.deepEqual(await at("2026-11-22T23:59:00.000Z"), []);
    t.deepEqual(await at("2026-11-23T00:00:00.000Z"), ["tokyo@example.com"], "09:00 in Tokyo");
    t.deepEqual(await at("2026-11-23T09:00:00.000Z"), ["plain@example.com", "tokyo@example.com"], "09:00 in London, the campaign's timezone");
    t.deepEqual(await at("2026-11-23T13:59:00.000Z"), ["plain@example.com", "tokyo@example.com"]);
    t.deepEqual(await at("2026-11-23T14:00:00.000Z"), ["ny@example.com", "plain@example.com", "tokyo@example.com"], "09:00 in New York");
    t.like(await get(s, id), { status: "sent", progress: { recipients: 3, sent: 3, remaining: 0 } });
  });

  test(name("a throttle in messages per minute spreads the batches"), async (t) => {
    const s = await sequenceSession(t, dialect, { campaignSends: { batchSize: 500, perCompany: 2, perServer: null } });
    for (let n = 1; n <= 5; n += 1) await contact(s, `r${n}@example.com`, `R${n}`);
    const id = await campaign(s);
    await schedule(s, id);
    s.api.clock.advance(HOUR);
    await s.runJobs();
    t.is(Object.keys(newsReceived(s)).length, 2, "two a minute");
    s.api.clock.advance(MINUTE);
    await s.runJobs();
    t.is(Object.keys(newsReceived(s)).length, 4);
    s.api.clock.advance(MINUTE);
    await s.runJobs();
    t.is(Object.keys(newsReceived(s)).length, 5);
    s.api.clock.advance(MINUTE);
    await s.runJobs();
    t.like(await get(s, id), { status: "sent", progress: { sent: 5, remaining: 0 } });
  });
}

for (const dialect of dialects()) {
  test(`${dialect.name}: campaign sends through the worker to a real SMTP server: scheduled for now, one DKIM-signed message per contact, then sent`, async (t) => {
    const { sink, runtime, api } = await smtpSetUp(t, dialect);
    const people = Array.from({ length: 12 }, (_, n) => ({ email: `reader${n}@example.com`, firstName: `Reader${n}` }));
    for (const person of people) t.is((await api("POST", "/api/v1/subscribers", person)).status, 200);
    const created = await api("POST", "/api/v1/campaigns", NEWS);
    t.is(created.status, 200, JSON.stringify(created.body));
    const id = created.body.campaign.id;
    const scheduled = await api("POST", `/api/v1/campaigns/${id}/schedule`, { scheduledAt: new Date().toISOString() });
    t.is(scheduled.status, 200, JSON.stringify(scheduled.body));

    await waitFor("the campaign to be sent", async () => (await runtime.knex("campaigns").where({ id }).first("status")).status === "sent", 60_000);
    const messages = await Promise.all(sink.received.map((message) => simpleParser(message.raw)));
    t.is(messages.length, 12);
    const byRecipient = new Map(messages.map((message) => [(Array.isArray(message.to) ? message.to[0] : message.to)!.value[0]!.address, message]));
    t.deepEqual([...byRecipient.keys()].sort(), people.map((person) => person.email).sort(), "each contact exactly once");
    for (const person of people) {
      const message = byRecipient.get(person.email)!;
      t.is(message.subject, `Hello ${person.firstName}`);
      t.regex(message.html || "", new RegExp(`Hi ${person.firstName}, here is the news`));
      const header = (key: string) => message.headerLines.find((line) => line.key === key)?.line ?? "";
      t.regex(header("dkim-signature"), /d=acme\.example;/, "signed with the domain's DKIM key");
      t.regex(header("list-unsubscribe"), /^List-Unsubscribe:\s+<http:\/\/lifecycle\.test\/u\//);
    }
    const campaign = (await api("GET", `/api/v1/campaigns/${id}`)).body.campaign;
    t.like(campaign, { status: "sent", progress: { recipients: 12, queued: 12, sent: 12, remaining: 0 }, stats: { sent: 12 } });
  });
}
