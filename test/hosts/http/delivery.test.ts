import test, { type ExecutionContext } from "ava";
import { createSign, generateKeyPairSync } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nock from "nock";
import { simpleParser } from "mailparser";
import { signWebhookBody } from "../../../adapters/crypto/webhook-signatures.js";
import type { MemoryMailTransport } from "../../../adapters/memory/memory-mail-transport.js";
import { DeliverEmail } from "../../../core/delivery/deliver-email.js";
import { MailTransport } from "../../../core/delivery/mail-transport.js";
import { DELIVER_ATTEMPTS, DELIVER_EMAIL_JOB, QueueEmailSend, type QueueEmailSendInput } from "../../../core/delivery/queue-email-send.js";
import type { Job } from "../../../core/ports/job-queue.js";
import { SecretBox } from "../../../core/ports/secret-box.js";
import { SuppressionRepository } from "../../../core/suppressions/ports.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { JobHandlers } from "../../../hosts/worker/job-handlers.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";

// SNS signing certificate: self-signed, served by nock at an amazonaws.com URL.
const certDir = mkdtempSync(join(tmpdir(), "lifecycle-sns-"));
execFileSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    join(certDir, "key.pem"),
    "-out",
    join(certDir, "cert.pem"),
    "-subj",
    "/CN=sns.amazonaws.com",
    "-days",
    "2",
  ],
  { stdio: "ignore" },
);
const SNS_KEY = readFileSync(join(certDir, "key.pem"), "utf8");
const SNS_CERT = readFileSync(join(certDir, "cert.pem"), "utf8");
rmSync(certDir, { recursive: true, force: true });
const CERT_HOST = "https://sns.us-east-1.amazonaws.com";
const CERT_PATH = "/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem";
const { privateKey: otherKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

nock.disableNetConnect();
nock.enableNetConnect(/127\.0\.0\.1|localhost/);
nock(CERT_HOST).persist().get(CERT_PATH).reply(200, SNS_CERT);

/** An SNS message signed as SNS signs it (SignatureVersion 2: SHA256 over the listed fields). */
function snsMessage(fields: Record<string, string>, key: string | import("node:crypto").KeyObject = SNS_KEY): Record<string, string> {
  const names =
    fields.Type === "Notification"
      ? ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
      : ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"];
  const signer = createSign("sha256WithRSAEncryption");
  for (const name of names) if (name in fields) signer.write(`${name}\n${fields[name]}\n`);
  signer.end();
  return { ...fields, SignatureVersion: "2", SigningCertURL: `${CERT_HOST}${CERT_PATH}`, Signature: signer.sign(key, "base64") };
}

const SES_TOPIC = "arn:aws:sns:us-east-1:123456789012:ses-events";

const sesNotification = (snsId: string, messageIdHeader: string, notification: Record<string, unknown>, topicArn = SES_TOPIC) =>
  snsMessage({
    Type: "Notification",
    MessageId: snsId,
    TopicArn: topicArn,
    Timestamp: "2026-11-22T10:05:00.000Z",
    Message: JSON.stringify({
      ...notification,
      mail: { timestamp: "2026-11-22T10:00:00.000Z", messageId: "0100018f-ses-own-id", headers: [{ name: "Message-ID", value: messageIdHeader }] },
    }),
  });

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  readonly transport: MemoryMailTransport;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const company = await createCompanyFixture(api.runtime.container);
  const transport = api.runtime.container.get<MemoryMailTransport>(MailTransport);
  return { api, company, transport };
}

const sendInput = (companyId: string, overrides: Partial<QueueEmailSendInput> = {}): QueueEmailSendInput => ({
  companyId,
  recipient: "Reader@Example.org",
  emailType: "transactional",
  sendKind: "marketing",
  subject: "Your weekly digest",
  html: "<p>Digest</p>",
  text: "Digest",
  sender: { email: "news@brand.example", name: "Brand News" },
  replyTo: "support@brand.example",
  unsubscribeUrl: "https://lifecycle.test/u/tok",
  ...overrides,
});

const jobFor = (companyId: string, emailSendId: string, attempts: number): Job => ({
  id: "job_test",
  type: DELIVER_EMAIL_JOB,
  payload: { emailSendId },
  companyId,
  status: "running",
  priority: 0,
  runAt: new Date(),
  attempts,
  maxAttempts: DELIVER_ATTEMPTS,
  lastError: null,
  singletonKey: null,
  leaseOwner: "test",
  leaseExpiresAt: null,
  createdAt: new Date(),
  completedAt: null,
});

/** Runs a job through its registered handler, as the worker does (the payload decoded first). */
const runHandler = (s: Session, job: Job): Promise<void> => s.api.runtime.container.get(JobHandlers).get(job.type)!(job);

async function queueAndDeliver(s: Session, overrides: Partial<QueueEmailSendInput> = {}) {
  const queued = await s.api.runtime.container.get(QueueEmailSend).execute(sendInput(s.company.companyId, overrides));
  if (queued._tag === "Left") throw new Error(queued.left.message);
  const status = await s.api.runtime.container.get(DeliverEmail).execute(s.company.companyId, queued.right.id);
  return { send: queued.right, status };
}

const sendRow = (s: Session, id: string) => s.api.runtime.knex("email_sends").where({ id }).first();
const eventRows = (s: Session, id: string) =>
  s.api.runtime
    .knex("email_events")
    .where({ email_send_id: id })
    .orderBy("created_at")
    .select("event_type", "bounce_type", "bounce_sub_type", "provider_event_id");
const iso = (value: unknown) => new Date(value as string).toISOString();

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a queued send is delivered through the transport with our Message-ID, RFC 8058 headers and the verified domain's DKIM key"), async (t) => {
    const s = await session(t, dialect);
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const box = s.api.runtime.container.get<SecretBox>(SecretBox);
    await s.api.runtime.knex("sending_domains").insert({
      id: "dom_test1",
      company_id: s.company.companyId,
      domain: "brand.example",
      status: "verified",
      verified_by: "operator",
      dkim_selector: "lc2026",
      dkim_public_key: "unused",
      dkim_private_key_sealed: box.seal(privateKey.export({ type: "pkcs8", format: "pem" }).toString()),
      created_at: "2026-11-22T09:00:00.000Z",
      updated_at: "2026-11-22T09:00:00.000Z",
    });

    const queuer = s.api.runtime.container.get(QueueEmailSend);
    const id = queuer.newSendId();
    t.regex(id, /^send_/);
    const queued = await queuer.execute(sendInput(s.company.companyId, { id }));
    t.is(queued._tag, "Right");
    const pending = await sendRow(s, id);
    t.is(pending.status, "pending");
    t.is(pending.recipient_email, "reader@example.org");
    const [job] = await s.api.runtime.knex("jobs").where({ type: DELIVER_EMAIL_JOB });
    t.truthy(job, "the delivery job is queued");

    t.is(await s.api.runtime.container.get(DeliverEmail).execute(s.company.companyId, id), "sent");
    const sent = await sendRow(s, id);
    t.is(sent.status, "sent");
    t.is(sent.message_id, `<${id}@brand.example>`);
    t.is(iso(sent.sent_at), "2026-11-22T10:00:00.000Z");
    t.deepEqual(
      (await eventRows(s, id)).map((e) => e.event_type),
      ["send"],
    );

    t.is(s.transport.messages.length, 1);
    const parsed = await simpleParser(s.transport.messages[0]!.raw);
    t.is(parsed.messageId, `<${id}@brand.example>`);
    t.is(parsed.headerLines.find((line) => line.key === "list-unsubscribe")?.line, "List-Unsubscribe: <https://lifecycle.test/u/tok>");
    t.is(parsed.headerLines.find((line) => line.key === "list-unsubscribe-post")?.line, "List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    t.regex(String(parsed.headerLines.find((line) => line.key === "dkim-signature")?.line), /d=brand\.example;.*s=lc2026/s);
    t.is(parsed.text?.trim(), "Digest");

    // Running the job again sends nothing more.
    t.is(await s.api.runtime.container.get(DeliverEmail).execute(s.company.companyId, id), "sent");
    t.is(s.transport.messages.length, 1);
  });

  test(name("suppressed recipients are never sent to; an unsubscribe does not stop a transactional message"), async (t) => {
    const s = await session(t, dialect);
    const suppressions = s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository);
    await suppressions.add({ companyId: s.company.companyId, email: "reader@example.org", reason: "hard_bounce", emailSendId: null, at: new Date() });
    await suppressions.add({ companyId: s.company.companyId, email: "left@example.org", reason: "unsubscribe", emailSendId: null, at: new Date() });

    const bounced = await queueAndDeliver(s, { sendKind: "transactional" });
    t.is(bounced.status, "suppressed");
    const row = await sendRow(s, bounced.send.id);
    t.deepEqual([row.status, row.suppression_reason], ["suppressed", "hard_bounce"]);
    t.truthy(row.suppressed_at);

    const marketing = await queueAndDeliver(s, { recipient: "left@example.org", sendKind: "marketing" });
    t.is(marketing.status, "suppressed");
    t.is(s.transport.messages.length, 0);

    const receipt = await queueAndDeliver(s, { recipient: "left@example.org", sendKind: "transactional", unsubscribeUrl: null });
    t.is(receipt.status, "sent");
    t.is(s.transport.messages.length, 1);
  });

  test(name("transport errors are retried by the queue; after the last attempt the send fails with a transport_failure event"), async (t) => {
    const s = await session(t, dialect);
    const queued = await s.api.runtime.container.get(QueueEmailSend).execute(sendInput(s.company.companyId));
    if (queued._tag === "Left") return t.fail();
    const id = queued.right.id;
    s.transport.failWith = new Error("connect ECONNREFUSED 127.0.0.1:2525");

    await t.throwsAsync(runHandler(s, jobFor(s.company.companyId, id, 1)), { message: /ECONNREFUSED/ });
    t.is((await sendRow(s, id)).status, "pending", "still pending while attempts remain");

    await runHandler(s, jobFor(s.company.companyId, id, DELIVER_ATTEMPTS));
    const failed = await sendRow(s, id);
    t.deepEqual([failed.status, failed.failure_reason], ["failed", "connect ECONNREFUSED 127.0.0.1:2525"]);
    t.deepEqual(
      (await eventRows(s, id)).map((e) => e.event_type),
      ["transport_failure"],
    );
  });

  test(
    name(
      "sends queued together share one delivery job; a refused recipient is retried alone and failed after the last attempt, a suppressed one is never sent",
    ),
    async (t) => {
      const s = await session(t, dialect);
      const queue = s.api.runtime.container.get(QueueEmailSend);
      const recipients = ["a@example.org", "b@example.org", "c@example.org"];
      const queued = await Promise.all(recipients.map((recipient) => queue.execute(sendInput(s.company.companyId, { recipient }))));
      const ids = queued.map((result) => (result._tag === "Right" ? result.right.id : ""));
      const jobs = await s.api.runtime.knex("jobs").where({ type: DELIVER_EMAIL_JOB });
      t.is(jobs.length, 1, "one job for the three sends");
      const payload = typeof jobs[0].payload === "string" ? JSON.parse(jobs[0].payload) : jobs[0].payload;
      t.deepEqual([...payload.emailSendIds].sort(), [...ids].sort());

      s.transport.refused.add("b@example.org");
      const suppressions = s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository);
      await suppressions.add({ companyId: s.company.companyId, email: "C@example.org", reason: "complaint", emailSendId: null, at: new Date() });
      const job = { ...jobFor(s.company.companyId, "", 1), payload };
      await t.throwsAsync(runHandler(s, job), { message: /550 5\.1\.1 <b@example\.org>/ });
      t.deepEqual(await Promise.all(ids.map(async (id) => (await sendRow(s, id)).status)), ["sent", "pending", "suppressed"]);
      t.deepEqual(
        s.transport.messages.map((m) => m.message.to),
        ["a@example.org"],
      );

      await runHandler(s, { ...job, attempts: DELIVER_ATTEMPTS });
      t.deepEqual(await Promise.all(ids.map(async (id) => (await sendRow(s, id)).status)), ["sent", "failed", "suppressed"]);
      t.is(s.transport.messages.length, 1, "the sends already made are not made again");
      t.deepEqual(
        (await eventRows(s, ids[1]!)).map((e) => e.event_type),
        ["transport_failure"],
      );
    },
  );

  test(name("a delivery job hands over as many sends at once as the transport takes, each with its own bodies"), async (t) => {
    const s = await session(t, dialect);
    const queue = s.api.runtime.container.get(QueueEmailSend);
    const recipients = Array.from({ length: 3 * s.transport.inFlight + 1 }, (_, n) => `reader${n}@example.org`);
    await Promise.all(
      recipients.map((recipient) => queue.execute(sendInput(s.company.companyId, { recipient, html: `<p>For ${recipient}</p>`, text: `For ${recipient}` }))),
    );
    const jobs = await s.api.runtime.knex("jobs").where({ type: DELIVER_EMAIL_JOB });
    t.is(jobs.length, 1, "one job for every send");
    // A relay that takes a while: the job keeps at most `inFlight` messages waiting on it.
    let waiting = 0;
    let mostWaiting = 0;
    const send = s.transport.send.bind(s.transport);
    s.transport.send = async (message) => {
      mostWaiting = Math.max(mostWaiting, (waiting += 1));
      await new Promise((resolve) => setTimeout(resolve, 40));
      waiting -= 1;
      return send(message);
    };
    const payload = typeof jobs[0].payload === "string" ? JSON.parse(jobs[0].payload) : jobs[0].payload;
    await runHandler(s, { ...jobFor(s.company.companyId, "", 1), payload });
    t.true(mostWaiting > 1 && mostWaiting <= s.transport.inFlight, `${mostWaiting} sends waited on the relay at once`);
    t.deepEqual(
      s.transport.messages.map(({ message }) => [message.to, message.html, message.text]).sort(),
      recipients.map((recipient) => [recipient, `<p>For ${recipient}</p>`, `For ${recipient}`]).sort(),
    );
  });

  test(name("suppression routes: list with search, paging and sorting, read one, remove; scopes and tenancy"), async (t) => {
    const s = await session(t, dialect);
    const other = await createCompanyFixture(s.api.runtime.container);
    const suppressions = s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository);
    const add = (companyId: string, email: string, reason: "hard_bounce" | "complaint" | "unsubscribe" | "manual", at: string) =>
      suppressions.add({ companyId, email, reason, emailSendId: null, at: new Date(at) });
    await add(s.company.companyId, "a@example.org", "hard_bounce", "2026-11-20T10:00:00.000Z");
    await add(s.company.companyId, "b@example.org", "complaint", "2026-11-21T10:00:00.000Z");
    await add(s.company.companyId, "c@test.io", "unsubscribe", "2026-11-22T10:00:00.000Z");
    await add(other.companyId, "secret@other.io", "manual", "2026-11-22T10:00:00.000Z");
    const call = (method: string, path: string, key = s.company.ownerKey) => s.api.call(method, path, { key });

    const all = await call("GET", "/api/v1/suppressions");
    t.is(all.status, 200);
    t.deepEqual(
      all.body.suppressions.map((row: { email: string }) => row.email),
      ["c@test.io", "b@example.org", "a@example.org"],
    );
    t.deepEqual(all.body.pagination, { page: 1, limit: 25, total: 3, totalPages: 1 });
    t.deepEqual([all.body.sortBy, all.body.sortOrder], ["suppressedAt", "desc"]);
    const first = all.body.suppressions[2];
    t.like(first, { email: "a@example.org", suppressionType: "hard_bounce", removable: true, suppressedAt: "2026-11-20T10:00:00.000Z", emailSendId: null });
    t.deepEqual(
      all.body.suppressions.map((row: { suppressionType: string; removable: boolean }) => [row.suppressionType, row.removable]),
      [
        ["unsubscribe", false],
        ["complaint", false],
        ["hard_bounce", true],
      ],
      "a complaint or an unsubscribe is the recipient's decision: the company cannot lift it",
    );

    const searched = await call("GET", "/v1/suppressions?search=EXAMPLE&sort=email&order=asc&limit=1&page=2");
    t.deepEqual(
      searched.body.suppressions.map((row: { email: string }) => row.email),
      ["b@example.org"],
    );
    t.deepEqual(searched.body.pagination, { page: 2, limit: 1, total: 2, totalPages: 2 });
    const tooMany = await call("GET", "/api/v1/suppressions?limit=101");
    t.is(tooMany.status, 422);
    t.deepEqual(tooMany.body.errors, [{ path: "limit", message: "must be between 1 and 100" }]);

    const one = await call("GET", `/api/v1/suppressions/${encodeURIComponent("B@Example.org")}`);
    t.deepEqual([one.status, one.body.suppression.suppressionType], [200, "complaint"]);
    const foreign = await call("GET", `/api/v1/suppressions/${encodeURIComponent("secret@other.io")}`);
    t.deepEqual([foreign.status, foreign.body], [404, { success: false, error: "Suppression not found" }]);
    t.false(JSON.stringify(all.body).includes("secret@other.io"));

    const removedForeign = await call("DELETE", `/api/v1/suppressions/${encodeURIComponent("secret@other.io")}`);
    t.is(removedForeign.body.removed, false, "another company's suppression is out of reach");
    t.truthy(await suppressions.find(other.companyId, "secret@other.io"));

    const removed = await call("DELETE", `/api/v1/suppressions/${encodeURIComponent("a@example.org")}`);
    t.deepEqual(removed.body, {
      success: true,
      email: "a@example.org",
      removed: true,
      removedLocalBounce: true,
      removedSesRegions: [],
      remainingSuppression: null,
      message: "Mail can reach a@example.org again",
    });
    t.is((await call("GET", `/api/v1/suppressions/${encodeURIComponent("a@example.org")}`)).status, 404);
    t.deepEqual((await call("DELETE", `/api/v1/suppressions/${encodeURIComponent("a@example.org")}`)).body, {
      success: true,
      email: "a@example.org",
      removed: false,
      removedLocalBounce: false,
      removedSesRegions: [],
      remainingSuppression: null,
      message: "a@example.org was not suppressed",
    });

    // A complaint and an unsubscribe stay, and the answer says what remains and why.
    for (const [email, reason, why] of [
      ["b@example.org", "complaint", "a complaint"],
      ["c@test.io", "unsubscribe", "an unsubscribe"],
    ] as const) {
      const kept = await call("DELETE", `/api/v1/suppressions/${encodeURIComponent(email)}`);
      t.is(kept.status, 200);
      t.like(kept.body, { success: true, email, removed: false, removedLocalBounce: false, removedSesRegions: [] });
      t.like(kept.body.remainingSuppression, { email, suppressionType: reason, removable: false });
      t.is(kept.body.message, `${email} stays suppressed: ${why} is the recipient's decision and only they can undo it`);
      t.like(await suppressions.find(s.company.companyId, email), { reason });
    }

    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, { scopes: ["suppressions:read"] });
    t.is((await call("GET", "/api/v1/suppressions", reader.key)).status, 200);
    const denied = await call("DELETE", `/api/v1/suppressions/${encodeURIComponent("b@example.org")}`, reader.key);
    t.deepEqual([denied.status, denied.body.error], [403, "API key is missing required scope: suppressions:write"]);
    t.truthy(await suppressions.find(s.company.companyId, "b@example.org"));
  });

  test(
    name("a bounce block the company lifts itself: the hard bounce suppressed the address and marked its contact bounced; DELETE lifts both and mail flows"),
    async (t) => {
      const s = await session(t, dialect);
      const other = await createCompanyFixture(s.api.runtime.container);
      const call = (method: string, path: string, body?: unknown, key = s.company.ownerKey) => s.api.call(method, path, { key, ...(body ? { body } : {}) });
      const reader = `/api/v1/subscribers/${encodeURIComponent("reader@example.org")}`;
      const suppression = `/api/v1/suppressions/${encodeURIComponent("Reader@Example.org")}`;
      t.is((await call("POST", "/api/v1/subscribers", { email: "reader@example.org" })).status, 200);
      // The other company has a bounced contact of the same address: each company's bounce blocks are its own.
      t.is((await call("POST", "/api/v1/subscribers", { email: "reader@example.org", status: "bounced" }, other.ownerKey)).status, 200);

      const secret = (await call("POST", "/api/v1/delivery-webhooks/secret")).body.secret as string;
      /** A permanent bounce of the send, through the signed generic webhook. */
      const bounce = async (emailSendId: string, id: string) => {
        const body = JSON.stringify({ type: "bounced", emailSendId, bounceType: "Permanent", bounceSubType: "General", id });
        const headers = { "content-type": "application/json", "x-signature": signWebhookBody(secret, body) };
        return (await fetch(`${s.api.server.url}/api/webhooks/generic/${s.company.companyId}`, { method: "POST", headers, body })).status;
      };
      const { send } = await queueAndDeliver(s);
      t.is(await bounce(send.id, "relay-bounce-1"), 200);
      t.is((await call("GET", reader)).body.subscriber.status, "bounced");
      t.like((await call("GET", suppression)).body.suppression, {
        email: "reader@example.org",
        suppressionType: "hard_bounce",
        removable: true,
        emailSendId: send.id,
      });
      t.is((await queueAndDeliver(s)).status, "suppressed", "the block stops the next send");

      // Another company's key lifts its own contact's bounce, never this company's block.
      t.is((await s.api.call("GET", reader, { key: other.ownerKey })).body.subscriber.status, "bounced", "our bounce did not touch theirs");
      const foreign = await call("DELETE", suppression, undefined, other.ownerKey);
      t.like(foreign.body, { removed: true, removedLocalBounce: true, remainingSuppression: null });
      t.is((await s.api.call("GET", reader, { key: other.ownerKey })).body.subscriber.status, "active");
      t.is((await call("GET", reader)).body.subscriber.status, "bounced");
      t.is((await call("GET", suppression)).status, 200);

      const lifted = await call("DELETE", suppression);
      t.deepEqual(lifted.body, {
        success: true,
        email: "reader@example.org",
        removed: true,
        removedLocalBounce: true,
        removedSesRegions: [],
        remainingSuppression: null,
        message: "Mail can reach reader@example.org again",
      });
      t.is((await call("GET", reader)).body.subscriber.status, "active");
      t.is((await call("GET", suppression)).status, 404);
      t.is((await queueAndDeliver(s)).status, "sent", "mail flows again");

      // A contact that arrived bounced (an import, a migration) has no suppression row: lifting its bounce makes it active.
      t.is((await call("POST", "/api/v1/subscribers", { email: "cleaned@example.org", status: "bounced" })).status, 200);
      const cleaned = await call("DELETE", `/api/v1/suppressions/${encodeURIComponent("cleaned@example.org")}`);
      t.like(cleaned.body, { removed: true, removedLocalBounce: true, remainingSuppression: null });
      t.is((await call("GET", `/api/v1/subscribers/${encodeURIComponent("cleaned@example.org")}`)).body.subscriber.status, "active");

      // A hard bounce leaves an unsubscribed contact unsubscribed: the recipient's own decision outranks.
      await call("POST", "/api/v1/subscribers", { email: "gone@example.org", status: "unsubscribed" });
      const { send: toGone } = await queueAndDeliver(s, { recipient: "gone@example.org", emailType: "transactional", sendKind: "transactional" });
      t.is(await bounce(toGone.id, "relay-bounce-2"), 200);
      t.is((await call("GET", `/api/v1/subscribers/${encodeURIComponent("gone@example.org")}`)).body.subscriber.status, "unsubscribed");
    },
  );

  test(
    name("generic webhook: signed events update the send once, a permanent bounce suppresses; bad signatures and unknown companies change nothing"),
    async (t) => {
      const s = await session(t, dialect);
      const { send } = await queueAndDeliver(s);
      const issued = await s.api.call("POST", "/api/v1/delivery-webhooks/secret", { key: s.company.ownerKey });
      t.is(issued.status, 201);
      t.regex(issued.body.secret, /^whsec_/);
      t.is(issued.body.webhookUrl, `http://lifecycle.test/api/webhooks/generic/${s.company.companyId}`);
      t.is(issued.body.sesWebhookUrl, `http://lifecycle.test/api/webhooks/ses/${s.company.companyId}`);
      const stored = await s.api.runtime.knex("delivery_webhook_secrets").where({ company_id: s.company.companyId }).first();
      t.false(String(stored.secret_sealed).includes(issued.body.secret), "stored sealed, never in plain text");

      const post = async (companyId: string, payload: unknown, secret: string = issued.body.secret, signature?: string) => {
        const body = JSON.stringify(payload);
        const response = await fetch(`${s.api.server.url}/api/webhooks/generic/${companyId}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-signature": signature ?? signWebhookBody(secret, body) },
          body,
        });
        return { status: response.status, body: (await response.json()) as any };
      };

      const delivered = await post(s.company.companyId, {
        type: "delivered",
        messageId: `<${send.id}@brand.example>`,
        occurredAt: "2026-11-22T10:01:00.000Z",
        id: "relay-1",
      });
      t.deepEqual(delivered, { status: 200, body: { success: true, emailSendId: send.id, stored: true } });
      let row = await sendRow(s, send.id);
      t.deepEqual([row.status, iso(row.delivered_at)], ["delivered", "2026-11-22T10:01:00.000Z"]);

      const bounce = {
        type: "bounced",
        emailSendId: send.id,
        bounceType: "Permanent",
        bounceSubType: "NoEmail",
        occurredAt: "2026-11-22T10:02:00.000Z",
        id: "relay-2",
      };
      t.deepEqual((await post(s.company.companyId, bounce)).body, { success: true, emailSendId: send.id, stored: true });
      t.deepEqual((await post(s.company.companyId, bounce)).body, { success: true, emailSendId: send.id, stored: false }, "a redelivery is stored once");
      row = await sendRow(s, send.id);
      t.deepEqual([row.status, row.bounce_type, row.bounce_sub_type, iso(row.bounced_at)], ["bounced", "Permanent", "NoEmail", "2026-11-22T10:02:00.000Z"]);
      t.deepEqual((await eventRows(s, send.id)).map((e) => e.event_type).sort(), ["bounce", "delivery", "send"]);
      const suppression = await s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository).find(s.company.companyId, "reader@example.org");
      t.like(suppression, { reason: "hard_bounce", emailSendId: send.id });

      // Wrong secret, tampered body, no header: 401 and nothing stored.
      const complaint = { type: "complained", emailSendId: send.id, id: "relay-3" };
      t.deepEqual(await post(s.company.companyId, complaint, "whsec_wrong"), { status: 401, body: { success: false, error: "Invalid signature" } });
      t.is((await post(s.company.companyId, complaint, issued.body.secret, signWebhookBody(issued.body.secret, "{}"))).status, 401);
      t.is((await post("co_missing", complaint)).status, 404);
      t.is((await sendRow(s, send.id)).complained_at, null);

      // Another company's secret cannot reach this company's sends.
      const other = await createCompanyFixture(s.api.runtime.container);
      const otherSecret = (await s.api.call("POST", "/api/v1/delivery-webhooks/secret", { key: other.ownerKey })).body.secret;
      t.deepEqual((await post(other.companyId, complaint, otherSecret)).body, { success: true, emailSendId: null, stored: false });
      t.is((await post(s.company.companyId, complaint, otherSecret)).status, 401);
      t.is((await sendRow(s, send.id)).complained_at, null);

      const invalid = await post(s.company.companyId, { type: "opened", emailSendId: send.id });
      t.is(invalid.status, 422);
    },
  );

  test(name("SES webhook: SNS signatures are checked, bounces and complaints are matched by Message-ID, stored once and suppress"), async (t) => {
    const s = await session(t, dialect);
    const { send } = await queueAndDeliver(s);
    const messageId = `<${send.id}@brand.example>`;
    const post = async (companyId: string, payload: unknown) => {
      const response = await fetch(`${s.api.server.url}/api/webhooks/ses/${companyId}`, {
        method: "POST",
        headers: { "content-type": "text/plain; charset=UTF-8" },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    const hook = await s.api.call("POST", "/api/v1/webhooks", {
      key: s.company.ownerKey,
      body: { name: "Delays", url: "https://hooks.example.com/ses", events: ["email.delivery_delayed"] },
    });
    t.is(hook.status, 200, JSON.stringify(hook.body));

    // A delivery delay (event publishing): stored once, and the send stays sent while SES keeps trying.
    const delay = sesNotification("sns-msg-0", messageId, {
      eventType: "DeliveryDelay",
      deliveryDelay: {
        timestamp: "2026-11-22T10:02:00.000Z",
        delayType: "MailboxFull",
        expirationTime: "2026-11-23T10:00:00.000Z",
        delayedRecipients: [{ emailAddress: "reader@example.org" }],
      },
    });
    t.deepEqual(await post(s.company.companyId, delay), { status: 200, body: { success: true, emailSendId: send.id, stored: true } });
    t.deepEqual((await post(s.company.companyId, delay)).body.stored, false);
    t.is((await sendRow(s, send.id)).status, "sent");
    // The company's webhook gets email.delivery_delayed once, with SES's time.
    const published = await s.api.runtime.knex("webhook_deliveries").where({ webhook_id: hook.body.webhook.id });
    t.deepEqual(
      published.map((row) => row.event_type),
      ["email.delivery_delayed"],
    );
    t.like(JSON.parse(published[0].body), { type: "email.delivery_delayed", created_at: "2026-11-22T10:02:00.000Z", data: { email_send_id: send.id } });

    const bounce = sesNotification("sns-msg-1", messageId, {
      notificationType: "Bounce",
      bounce: {
        bounceType: "Transient",
        bounceSubType: "MailboxFull",
        timestamp: "2026-11-22T10:03:00.000Z",
        bouncedRecipients: [{ emailAddress: "reader@example.org" }],
      },
    });
    t.deepEqual(await post(s.company.companyId, bounce), { status: 200, body: { success: true, emailSendId: send.id, stored: true } });
    t.deepEqual((await post(s.company.companyId, bounce)).body.stored, false, "SNS redelivery is stored once");
    let row = await sendRow(s, send.id);
    t.deepEqual([row.status, row.bounce_type, row.bounce_sub_type], ["bounced", "Transient", "MailboxFull"]);
    const suppressions = s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository);
    t.is(await suppressions.find(s.company.companyId, "reader@example.org"), null, "a transient bounce does not suppress");

    const complaint = sesNotification("sns-msg-2", messageId, {
      notificationType: "Complaint",
      complaint: { timestamp: "2026-11-22T10:04:00.000Z", feedbackId: "fb-1" },
    });
    t.is((await post(s.company.companyId, complaint)).body.stored, true);
    row = await sendRow(s, send.id);
    t.deepEqual([row.status, iso(row.complained_at)], ["complained", "2026-11-22T10:04:00.000Z"]);
    t.like(await suppressions.find(s.company.companyId, "reader@example.org"), { reason: "complaint" });
    const events = await eventRows(s, send.id);
    t.deepEqual(
      events
        .filter((e) => e.provider_event_id)
        .map((e) => [e.event_type, e.provider_event_id])
        .sort((x, y) => x[1].localeCompare(y[1])),
      [
        ["delivery_delay", "ses:sns-msg-0"],
        ["bounce", "ses:sns-msg-1"],
        ["complaint", "ses:sns-msg-2"],
      ],
    );

    // A forged signature, or a signature over other content: 401 and nothing stored.
    const forged = sesNotification("sns-msg-3", messageId, { notificationType: "Delivery", delivery: { timestamp: "2026-11-22T10:05:00.000Z" } });
    const wrongKey = { ...forged, Signature: snsMessage({ ...forged }, otherKey).Signature };
    t.deepEqual(await post(s.company.companyId, wrongKey), { status: 401, body: { success: false, error: "Invalid signature" } });
    t.is((await post(s.company.companyId, { ...forged, Message: forged.Message!.replace("Delivery", "Bounce") })).status, 401);
    t.is((await post(s.company.companyId, { ...forged, SigningCertURL: "https://evil.example.com/cert.pem" })).status, 401);
    t.is((await sendRow(s, send.id)).delivered_at, null);
    t.is((await post("co_missing", forged)).status, 404);

    // Tenancy: the same notification at another company's URL matches nothing there.
    const other = await createCompanyFixture(s.api.runtime.container);
    t.deepEqual((await post(other.companyId, forged)).body, { success: true, emailSendId: null, stored: false });
    t.is((await sendRow(s, send.id)).delivered_at, null);
  });

  test(name("SES webhook: the first topic seen is pinned; another topic's messages are refused until the company unpins it"), async (t) => {
    const s = await session(t, dialect);
    const { send } = await queueAndDeliver(s);
    const messageId = `<${send.id}@brand.example>`;
    const otherTopic = "arn:aws:sns:eu-west-1:999999999999:someone-elses";
    const post = async (payload: unknown) => {
      const response = await fetch(`${s.api.server.url}/api/webhooks/ses/${s.company.companyId}`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const confirmation = (topicArn: string) =>
      snsMessage({
        Type: "SubscriptionConfirmation",
        MessageId: `sub-${topicArn}`,
        Token: "tok",
        TopicArn: topicArn,
        Message: "You have chosen to subscribe",
        SubscribeURL: `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&Token=${dialect.name}`,
        Timestamp: "2026-11-22T10:00:00.000Z",
      });
    const complaint = (snsId: string, topicArn: string) =>
      sesNotification(snsId, messageId, { notificationType: "Complaint", complaint: { timestamp: "2026-11-22T10:04:00.000Z", feedbackId: snsId } }, topicArn);

    // The company's own subscription pins its topic.
    nock("https://sns.eu-west-1.amazonaws.com").get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
    t.deepEqual(await post(confirmation(SES_TOPIC)), { status: 200, body: { success: true, confirmed: true } });
    // Someone else's topic, validly signed by SNS, can neither subscribe nor report.
    const refused = await post(confirmation(otherTopic));
    t.is(refused.status, 403);
    t.regex(refused.body.error, new RegExp(`come from the SNS topic ${SES_TOPIC}`));
    t.is((await post(complaint("sns-other-1", otherTopic))).status, 403);
    t.is((await sendRow(s, send.id)).complained_at, null, "nothing stored from the other topic");
    t.is(await s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository).find(s.company.companyId, "reader@example.org"), null);

    // After the company unpins its topic, the next topic to confirm is pinned instead.
    const unpinned = await s.api.call("DELETE", "/api/v1/delivery-webhooks/ses-topic", { key: s.company.ownerKey });
    t.deepEqual([unpinned.status, unpinned.body], [200, { success: true, unpinned: SES_TOPIC }]);
    nock("https://sns.eu-west-1.amazonaws.com").get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
    t.is((await post(confirmation(otherTopic))).status, 200);
    t.is((await post(complaint("sns-old-1", SES_TOPIC))).status, 403, "the old topic is refused now");
    t.deepEqual((await post(complaint("sns-other-2", otherTopic))).body, { success: true, emailSendId: send.id, stored: true });
  });

  test(name("SES webhook: a subscription is confirmed only through an https amazonaws.com SubscribeURL"), async (t) => {
    const s = await session(t, dialect);
    const subscribeUrl = `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn&Token=tok-${dialect.name}`;
    const confirmation = nock("https://sns.us-east-1.amazonaws.com").get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
    const subscription = (url: string) =>
      snsMessage({
        Type: "SubscriptionConfirmation",
        MessageId: `sub-${url.length}`,
        Token: "tok",
        TopicArn: "arn:aws:sns:us-east-1:123456789012:ses-events",
        Message: "You have chosen to subscribe",
        SubscribeURL: url,
        Timestamp: "2026-11-22T10:00:00.000Z",
      });
    const post = async (payload: unknown) => {
      const response = await fetch(`${s.api.server.url}/api/webhooks/ses/${s.company.companyId}`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    t.deepEqual(await post(subscription(subscribeUrl)), { status: 200, body: { success: true, confirmed: true } });
    t.true(confirmation.isDone());

    const elsewhere = await post(subscription("https://attacker.example.com/confirm"));
    t.deepEqual(elsewhere, { status: 400, body: { success: false, error: "SubscribeURL is not an Amazon URL" } });
    t.is((await post(subscription("http://sns.us-east-1.amazonaws.com/confirm"))).status, 400);
  });
}
