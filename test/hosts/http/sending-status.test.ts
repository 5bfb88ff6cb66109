import test, { type ExecutionContext } from "ava";
import { tmpdir } from "node:os";
import { simpleParser, type ParsedMail } from "mailparser";
import { signWebhookBody } from "../../../adapters/crypto/webhook-signatures.js";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { insertSendHistories } from "../../../fixtures/email-sends.js";
import { createLogger } from "../../../hosts/logger.js";
import { startRuntime, type Runtime } from "../../../hosts/runtime.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { runCli } from "../../helpers/cli.js";
import { dialects, type Dialect, type TestDatabase } from "../../helpers/databases.js";
import { call } from "../../helpers/http-client.js";
import { BASE_URL, listen, TEST_CAPACITY } from "../../helpers/runtime.js";
import { smtpSink, type Received } from "../../helpers/smtp-sink.js";

const SENDER = "hello@brand.example";

interface Tenant {
  readonly company: CompanyFixture;
  api(method: string, path: string, body?: unknown, key?: string): ReturnType<typeof call>;
  /** Sends already made (an hour ago, nothing heard back), that later bounces and complaints point at. */
  history(count: number): Promise<string[]>;
  /** A bounce or complaint of one of its sends, through the signed generic delivery webhook. */
  report(emailSendId: string, type: "bounced" | "complained"): Promise<number>;
  /** POST /transactional/send of a saved email to one address: `marketing` or `transactional`. */
  send(to: string, emailType: "marketing" | "transactional"): Promise<string>;
}

interface Setup {
  readonly database: TestDatabase;
  readonly runtime: Runtime;
  readonly received: Received[];
  tenant(name: string): Promise<Tenant>;
  /** Waits until the SMTP sink holds `count` messages (or 15 s passed), then gives every message. */
  messages(count: number): Promise<ParsedMail[]>;
}

/** The real app, the real worker and a real SMTP server on loopback. */
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
  let histories = 0;
  return {
    database,
    runtime,
    received: sink.received,
    async tenant(name) {
      const company = await createCompanyFixture(runtime.container, { name });
      const made = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, SENDER);
      if (made._tag === "Left") throw new Error(made.left.message);
      const api: Tenant["api"] = (method, path, body, key = company.ownerKey) =>
        call(server.url, method, path, { key, ...(body === undefined ? {} : { body }) });
      const saved = await api("POST", "/api/v1/transactional", { name: "Notice", subject: `${name} notice`, html: "<p>Hello</p>" });
      if (saved.status !== 200) throw new Error(JSON.stringify(saved.body));
      const secret = (await api("POST", "/api/v1/delivery-webhooks/secret")).body.secret as string;
      return {
        company,
        api,
        async history(count) {
          const sentAt = new Date(Date.now() - 60 * 60 * 1000);
          const ids = Array.from({ length: count }, () => `send_h${(histories += 1)}`);
          await insertSendHistories(
            runtime.knex,
            company.companyId,
            ids.map((id) => ({ id, sentAt })),
          );
          return ids;
        },
        async report(emailSendId, type) {
          const body = JSON.stringify({ type, emailSendId, id: `${type}-${emailSendId}`, ...(type === "bounced" ? { bounceType: "Permanent" } : {}) });
          const headers = { "content-type": "application/json", "x-signature": signWebhookBody(secret, body) };
          return (await fetch(`${server.url}/api/webhooks/generic/${company.companyId}`, { method: "POST", headers, body })).status;
        },
        async send(to, emailType) {
          const sent = await api("POST", "/api/v1/transactional/send", { slug: "notice", to, emailType });
          if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
          return sent.body.emailSendId as string;
        },
      };
    },
    async messages(count) {
      const deadline = Date.now() + 15_000;
      while (sink.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return Promise.all(sink.received.map((message) => simpleParser(message.raw)));
    },
  };
}

/** Polls until `check` holds (or 10 s passed). */
async function until(check: () => Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) if (await check()) return true;
  return false;
}

const heldSends = async (tenant: Tenant): Promise<number> => (await tenant.api("GET", "/api/v1/sending-status")).body.heldSends;
const recipients = (messages: ParsedMail[]) => messages.map((message) => (Array.isArray(message.to) ? message.to[0] : message.to)!.value[0]!.address).sort();

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sending status ${title}`;

  test(
    name(
      "crossing the hard-bounce threshold pauses marketing mail, transactional mail still goes, held sends go after a self-resume; another company is untouched",
    ),
    async (t) => {
      const s = await setUp(t, dialect);
      const brand = await s.tenant("Brand");
      const other = await s.tenant("Other");

      const fresh = await brand.api("GET", "/api/v1/sending-status");
      t.is(fresh.status, 200);
      t.deepEqual(fresh.body, {
        success: true,
        status: "active",
        pauseReason: null,
        pauseReasonKind: null,
        pausedAt: null,
        selfResume: { canSelfResume: false, requiresListSanitizationConfirmation: false, reason: null },
        senderHealth: {
          recentSendLimit: 5000,
          bounceRateSends: 0,
          hardBounces: 0,
          hardBounceRate: 0,
          softBounces: 0,
          softBounceRate: 0,
          complaintRateSends: 0,
          complaints: 0,
          complaintRate: 0,
          thresholds: { hardBounceRate: 5, hardBounceMinimumSends: 100, complaintRate: 0.1, complaintSuspensionRate: 0.5, complaintMinimumSends: 1000 },
        },
        metricsWindow: { kind: "all_time_since_reset", expiresAt: null, bounceResetAt: null, complaintResetAt: null },
        remediation: null,
        heldSends: 0,
      });

      const [sent, otherSent] = [await brand.history(100), await other.history(100)];
      // Five hard bounces in 100 sends is 5%: at the limit, not above it.
      for (const id of sent.slice(0, 5)) t.is(await brand.report(id, "bounced"), 200);
      t.is((await brand.api("GET", "/api/v1/sending-status")).body.status, "active");
      // The other company bounces just as much: its rate is its own.
      for (const id of otherSent.slice(0, 5)) t.is(await other.report(id, "bounced"), 200);
      t.is(await brand.report(sent[5]!, "bounced"), 200);

      const paused = await brand.api("GET", "/api/v1/sending-status");
      t.like(paused.body, {
        status: "paused",
        pauseReasonKind: "high_hard_bounce_rate",
        pauseReason: "6 of your latest 100 sends hard-bounced (6.00%, above the 5% limit)",
        selfResume: { canSelfResume: true, requiresListSanitizationConfirmation: true },
        senderHealth: { bounceRateSends: 100, hardBounces: 6, hardBounceRate: 6 },
        metricsWindow: { kind: "all_time_since_reset", expiresAt: null, bounceResetAt: null },
      });
      t.truthy(Date.parse(paused.body.pausedAt));
      t.regex(paused.body.remediation.summary, /Clean the list/);
      t.true(paused.body.remediation.steps.length > 0);
      t.like((await other.api("GET", "/api/v1/sending-status")).body, { status: "active", senderHealth: { hardBounces: 5, hardBounceRate: 5 } });

      // Marketing mail waits; the receipt and the other company's newsletter go.
      const newsletter = await brand.send("reader@example.org", "marketing");
      await brand.send("buyer@example.org", "transactional");
      await other.send("fan@example.org", "marketing");
      t.true(await until(async () => (await heldSends(brand)) === 1), "the newsletter is held");
      t.deepEqual(recipients(await s.messages(2)), ["buyer@example.org", "fan@example.org"]);
      const held = await s.runtime.knex("email_sends").where({ id: newsletter }).first();
      t.is(held.status, "pending", "held, not dropped");
      t.is(await heldSends(other), 0);

      // The email-sends search and the send itself say it is held, and the search finds the held sends.
      const shown = (await brand.api("GET", `/api/v1/email-sends/${newsletter}`)).body.emailSend;
      t.like(shown, { status: "pending" });
      const heldAt = Date.parse(shown.heldAt);
      t.true(heldAt >= Date.parse(paused.body.pausedAt), "held after the pause");
      const heldOnly = (await brand.api("GET", "/api/v1/email-sends?held=true")).body;
      t.deepEqual(
        heldOnly.emailSends.map((send: { id: string; status: string; heldAt: string }) => [send.id, send.status, send.heldAt]),
        [[newsletter, "pending", shown.heldAt]],
      );
      const notHeld = (await brand.api("GET", "/api/v1/email-sends?held=false&limit=100")).body.emailSends as Array<{ id: string; heldAt: unknown }>;
      t.false(notHeld.some((send) => send.id === newsletter));
      t.true(notHeld.length > 0 && notHeld.every((send) => send.heldAt === null), "the receipt went: not held");
      t.is((await brand.api("GET", "/api/v1/email-sends?held=maybe")).status, 422);

      // Resuming takes the confirmation, a boolean, and a key that may change sending settings.
      const unconfirmed = await brand.api("POST", "/api/v1/sending-status/resume", { listSanitizationConfirmed: false });
      t.is(unconfirmed.status, 400);
      t.like(unconfirmed.body, { success: false, code: "LIST_SANITIZATION_REQUIRED" });
      t.regex(unconfirmed.body.error, /listSanitizationConfirmed: true/);
      const malformed = await brand.api("POST", "/api/v1/sending-status/resume", { listSanitizationConfirmed: "yes" });
      t.is(malformed.status, 422);
      t.deepEqual(
        malformed.body.errors.map((error: { path: string }) => error.path),
        ["listSanitizationConfirmed"],
      );
      const reader = await createMemberKeyFixture(s.runtime.container, brand.company.companyId, { scopes: ["analytics:read"] });
      t.is((await brand.api("GET", "/api/v1/sending-status", undefined, reader.key)).status, 200);
      const refused = await brand.api("POST", "/api/v1/sending-status/resume", { listSanitizationConfirmed: true }, reader.key);
      t.is(refused.status, 403);
      t.regex(refused.body.error, /senders:write/);
      t.is((await other.api("POST", "/api/v1/sending-status/resume", { listSanitizationConfirmed: true })).body.resumed, false, "nothing to resume elsewhere");
      t.is((await brand.api("GET", "/api/v1/sending-status")).body.status, "paused", "another company's resume changes nothing here");

      const resumed = await brand.api("POST", "/api/v1/sending-status/resume", { listSanitizationConfirmed: true });
      t.is(resumed.status, 200);
      t.like(resumed.body, {
        success: true,
        resumed: true,
        message: "Sending resumed: 1 held send is queued for delivery",
        status: "active",
        selfResume: { canSelfResume: false },
        metricsWindow: { kind: "all_time_since_reset", expiresAt: null, complaintResetAt: null },
        remediation: null,
        releasedSends: 1,
      });
      t.truthy(Date.parse(resumed.body.metricsWindow.bounceResetAt));
      t.deepEqual(recipients(await s.messages(3)), ["buyer@example.org", "fan@example.org", "reader@example.org"]);
      t.true(await until(async () => (await s.runtime.knex("email_sends").where({ id: newsletter }).first()).status === "sent"));
      t.like((await brand.api("GET", `/api/v1/email-sends/${newsletter}`)).body.emailSend, { status: "sent", heldAt: null });
      t.deepEqual((await brand.api("GET", "/api/v1/email-sends?held=true")).body.emailSends, []);

      const after = await brand.api("GET", "/api/v1/sending-status");
      t.like(
        after.body,
        { status: "active", heldSends: 0, senderHealth: { bounceRateSends: 1, hardBounces: 0 } },
        "the bounce rate starts over: only the newsletter counts",
      );
      t.is(after.body.metricsWindow.bounceResetAt, resumed.body.metricsWindow.bounceResetAt);
      // A late bounce of a send from before the reset does not pause again.
      t.is(await brand.report(sent[6]!, "bounced"), 200);
      t.is((await brand.api("GET", "/api/v1/sending-status")).body.status, "active");
    },
  );

  test(name("a complaint pause cannot be resumed by the company; extreme complaints suspend even transactional mail until the operator resumes"), async (t) => {
    const s = await setUp(t, dialect);
    const brand = await s.tenant("Brand");
    const sent = await brand.history(1000);

    // One complaint in 1,000 sends is 0.1%: at the limit. The second crosses it.
    t.is(await brand.report(sent[0]!, "complained"), 200);
    t.is((await brand.api("GET", "/api/v1/sending-status")).body.status, "active");
    t.is(await brand.report(sent[1]!, "complained"), 200);
    const paused = await brand.api("GET", "/api/v1/sending-status");
    t.like(paused.body, {
      status: "paused",
      pauseReasonKind: "high_complaint_rate",
      pauseReason: "2 of your latest 1000 sends were reported as spam (0.20%, above the 0.1% limit)",
      selfResume: { canSelfResume: false, requiresListSanitizationConfirmation: false },
      senderHealth: { complaintRateSends: 1000, complaints: 2, complaintRate: 0.2 },
    });
    t.regex(paused.body.remediation.summary, /cannot be resumed from the API/);

    const refused = await brand.api("POST", "/api/v1/sending-status/resume", { listSanitizationConfirmed: true });
    t.is(refused.status, 409);
    t.like(refused.body, { success: false, code: "SELF_RESUME_NOT_ALLOWED", status: "paused", pauseReasonKind: "high_complaint_rate" });
    t.regex(refused.body.error, /cannot be resumed from the API/);
    t.is((await brand.api("GET", "/api/v1/sending-status")).body.status, "paused");

    // A hard-bounce storm on top does not turn it into a pause the company could lift.
    for (const id of sent.slice(100, 200)) await brand.report(id, "bounced");
    t.like((await brand.api("GET", "/api/v1/sending-status")).body, { status: "paused", pauseReasonKind: "high_complaint_rate" });

    await brand.send("buyer@example.org", "transactional");
    t.deepEqual(recipients(await s.messages(1)), ["buyer@example.org"], "a paused company's transactional mail goes");

    // Six complaints in 1,000 sends (0.6%) is above 0.5%: everything stops.
    for (const id of sent.slice(2, 6)) t.is(await brand.report(id, "complained"), 200);
    const suspended = await brand.api("GET", "/api/v1/sending-status");
    t.like(suspended.body, { status: "suspended", pauseReasonKind: "high_complaint_rate", pausedAt: paused.body.pausedAt });
    t.regex(suspended.body.pauseReason, /0\.60%, above the 0\.5% limit/);
    t.regex(suspended.body.remediation.summary, /transactional mail included/);
    await brand.send("second-buyer@example.org", "transactional");
    t.true(await until(async () => (await heldSends(brand)) === 1), "the receipt is held");
    t.is(s.received.length, 1);
    t.is((await brand.api("POST", "/api/v1/sending-status/resume", { listSanitizationConfirmed: true })).status, 409);

    // The operator lifts it from the CLI, after a review.
    const cli = (company: string) => runCli(["admin", "resume-sending", "--company", company, "--json"], { cwd: tmpdir(), env: s.database.env });
    const unknown = await cli("co_nope");
    t.not(unknown.code, 0);
    t.is(unknown.stderr.trim(), "error: Company not found: co_nope");
    const lifted = await cli(brand.company.companyId);
    t.is(lifted.code, 0, lifted.stderr);
    const output = JSON.parse(lifted.stdout);
    t.like(output, { resumed: true, status: "active", releasedSends: 1, message: "Sending resumed: 1 held send is queued for delivery" });
    t.truthy(output.metricsWindow.complaintResetAt);
    t.deepEqual(recipients(await s.messages(2)), ["buyer@example.org", "second-buyer@example.org"]);
    // Both rates start over: only the receipt sent since counts.
    t.like((await brand.api("GET", "/api/v1/sending-status")).body, { status: "active", heldSends: 0, senderHealth: { complaintRateSends: 1, complaints: 0 } });
  });
}
