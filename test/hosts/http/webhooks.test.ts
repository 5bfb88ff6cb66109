import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import test, { type ExecutionContext } from "ava";
import { signWebhookBody } from "../../../adapters/crypto/webhook-signatures.js";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";
import { SweepRetention } from "../../../core/retention/sweep-retention.js";
import { JobQueue } from "../../../core/ports/job-queue.js";
import { DELIVERIES_PER_JOB, webhookDeliveryJob } from "../../../core/webhooks/delivery-job.js";
import { emailWebhookEvent } from "../../../core/webhooks/event-data.js";
import { WebhookPublisher } from "../../../core/webhooks/ports.js";

interface Delivered {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly event: Record<string, any>;
}

interface Answer {
  status: number;
  /** When set, the status for each event instead. */
  byEvent?: (event: Record<string, any>) => number;
}

/** A customer's receiver on loopback: answers `status` (200 unless changed), keeps every request. */
async function receiver(t: ExecutionContext): Promise<{ url: string; received: Delivered[]; answer: Answer }> {
  const received: Delivered[] = [];
  const answer: Answer = { status: 200 };
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (chunk: Buffer) => parts.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(parts).toString("utf8");
      const event = JSON.parse(body);
      received.push({ path: request.url ?? "", headers: request.headers, body, event });
      const status = answer.byEvent?.(event) ?? answer.status;
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "down for maintenance");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, answer };
}

/** What a receiver does (README, Outbound webhooks): the signatures of the header that `secret` makes match. */
function signedWith(secret: string, delivery: Pick<Delivered, "headers" | "body">): boolean {
  const timestamp = String(delivery.headers["x-sequenzy-timestamp"]);
  const expected = createHmac("sha256", secret).update(`v1:${timestamp}:${delivery.body}`).digest();
  return String(delivery.headers["x-sequenzy-signature"])
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith("v1="))
    .some((entry) => {
      const given = Buffer.from(entry.slice(3), "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

async function createWebhook(s: SequenceSession, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const created = await s.call("POST", "/api/v1/webhooks", { body });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return { id: created.body.webhook.id, secret: created.body.webhook.signingSecret };
}

const addContact = (s: SequenceSession, email: string) => s.call("POST", "/api/v1/subscribers", { body: { email, firstName: "Ada" } });

const SECOND = 1000;

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: outbound webhooks ${title}`;

  test(name("are created, listed, changed and deleted as compat-reference §21 shows; the secret is shown once and stored sealed"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);

    const created = await s.call("POST", "/api/v1/webhooks", { body: { name: "CRM", url: hook.url } });
    t.is(created.status, 200);
    const webhook = created.body.webhook;
    t.regex(webhook.signingSecret, /^whsec_[A-Za-z0-9_-]{32}$/);
    t.like(webhook, { name: "CRM", url: hook.url, status: "enabled", consecutiveFailures: 0, circuitOpenedAt: null, circuitOpenUntil: null });
    t.deepEqual(webhook.events, [
      "email.sent",
      "email.delivered",
      "email.delivery_delayed",
      "email.bounced",
      "email.complained",
      "email.unsubscribed",
      "subscriber.invalid",
      "subscriber.unsubscribed",
    ]);
    t.is(webhook.signingSecrets.length, 1);
    t.is(webhook.signingSecrets[0].prefix, webhook.signingSecret.slice(0, 12));

    const listed = await s.call("GET", "/api/v1/webhooks");
    t.is(listed.status, 200);
    t.is(listed.body.webhooks.length, 1);
    t.is(listed.body.webhooks[0].signingSecret, undefined, "never shown again");
    const fetched = await s.call("GET", `/api/v1/webhooks/${webhook.id}`);
    t.is(fetched.body.webhook.signingSecret, undefined);
    t.false(JSON.stringify([listed.body, fetched.body]).includes(webhook.signingSecret));

    // Only its sealed form is stored, anywhere.
    const knex = s.api.runtime.knex;
    const rows = [...(await knex("webhooks")), ...(await knex("webhook_signing_secrets"))];
    t.is(rows.length, 2);
    t.false(JSON.stringify(rows).includes(webhook.signingSecret));
    t.false(JSON.stringify(rows).includes(webhook.signingSecret.slice(6)));

    const patched = await s.call("PATCH", `/api/v1/webhooks/${webhook.id}`, {
      body: { events: ["subscriber.created", "subscriber.created"], status: "disabled", name: "CRM sync" },
    });
    t.is(patched.status, 200);
    t.like(patched.body.webhook, { name: "CRM sync", status: "disabled" });
    t.deepEqual(patched.body.webhook.events, ["subscriber.created"]);
    t.is(patched.body.webhook.signingSecret, undefined);

    const empty = await s.call("PATCH", `/api/v1/webhooks/${webhook.id}`, { body: {} });
    t.is(empty.status, 400);
    t.is(empty.body.success, false);
    const badEvent = await s.call("POST", "/api/v1/webhooks", { body: { name: "x", url: hook.url, events: ["email.teleported"] } });
    t.is(badEvent.status, 422);
    t.is(badEvent.body.errors[0].path, "events.0");
    const noName = await s.call("POST", "/api/v1/webhooks", { body: { url: hook.url } });
    t.is(noName.status, 422);
    t.is((await s.call("GET", "/api/v1/webhooks")).body.webhooks.length, 1, "refused requests saved nothing");

    const removed = await s.call("DELETE", `/api/v1/webhooks/${webhook.id}`);
    t.deepEqual(removed.body, { success: true, webhookId: webhook.id });
    t.is((await s.call("GET", `/api/v1/webhooks/${webhook.id}`)).status, 404);
    t.is((await s.call("DELETE", `/api/v1/webhooks/${webhook.id}`)).status, 404);
    t.is((await knex("webhook_signing_secrets")).length, 0);
  });

  test(name("take only https URLs of public hosts unless private destinations are allowed"), async (t) => {
    const api = await apiFixture(t, dialect);
    const a = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const post = (url: string) => api.call("POST", "/api/v1/webhooks", { key: a.ownerKey, body: { name: "x", url } });
    for (const url of [
      "http://hooks.example.com/in",
      "https://127.0.0.1/in",
      "https://10.1.2.3/in",
      "https://localhost/in",
      "https://user:pw@hooks.example.com/",
      "ftp://x.example.com",
      "not a url",
    ]) {
      const refused = await post(url);
      t.is(refused.status, 400, url);
      t.is(refused.body.success, false);
      t.is(refused.body.code, "invalid_input");
    }
    t.is((await post("https://hooks.example.com/in?source=lifecycle")).status, 200);
    t.is((await api.call("GET", "/api/v1/webhooks", { key: a.ownerKey })).body.webhooks.length, 1);
  });

  test(name("belong to their company: another company's webhook is not found, and scopes are checked"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    const { id } = await createWebhook(s, { name: "A's", url: hook.url, events: ["subscriber.created"] });
    const asB = (method: string, path: string, body?: unknown) => s.call(method, path, body === undefined ? {} : { body }, s.b);
    t.deepEqual((await asB("GET", "/api/v1/webhooks")).body.webhooks, []);
    for (const [method, path, body] of [
      ["GET", `/api/v1/webhooks/${id}`],
      ["PATCH", `/api/v1/webhooks/${id}`, { name: "taken" }],
      ["POST", `/api/v1/webhooks/${id}/test`],
      ["POST", `/api/v1/webhooks/${id}/signing-secrets`, {}],
      ["GET", `/api/v1/webhooks/${id}/deliveries`],
      ["DELETE", `/api/v1/webhooks/${id}`],
    ] as const) {
      const answer = await asB(method, path, body);
      t.is(answer.status, 404, `${method} ${path}`);
      t.is(answer.body.error, "Webhook not found");
    }
    t.is(hook.received.length, 0, "B's test reached nothing");
    // B's contacts do not reach A's webhook.
    await addContact(s, "a-contact@example.com");
    await s.call("POST", "/api/v1/subscribers", { body: { email: "b-contact@example.com" } }, s.b);
    await s.runJobs();
    t.deepEqual(
      hook.received.map((d) => d.event.data.email),
      ["a-contact@example.com"],
    );
    t.is((await s.call("GET", `/api/v1/webhooks/${id}`)).body.webhook.name, "A's");

    const reader = await createMemberKeyFixture(s.api.runtime.container, s.a.companyId, { role: "owner", scopes: ["webhooks:read"] });
    t.is((await s.api.call("GET", "/api/v1/webhooks", { key: reader.key })).status, 200);
    const refused = await s.api.call("POST", "/api/v1/webhooks", { key: reader.key, body: { name: "x", url: hook.url } });
    t.is(refused.status, 403);
    t.regex(refused.body.error, /webhooks:write/);
    const none = await createMemberKeyFixture(s.api.runtime.container, s.a.companyId, { role: "owner", scopes: ["subscribers:read"] });
    t.is((await s.api.call("GET", "/api/v1/webhooks", { key: none.key })).status, 403);
  });

  test(name("publish subscriber.updated for each contact whose tags a bulk call or a background operation changed, and for no other"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    await createWebhook(s, { name: "Updates", url: hook.url, events: ["subscriber.updated"] });
    for (const email of ["ada@example.com", "bo@example.com", "cy@example.com"]) t.is((await addContact(s, email)).status, 200);
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "other@example.com" } }, s.b)).status, 200);
    const drain = async () => {
      while ((await s.runJobs()) > 0);
    };
    await drain();
    t.is(hook.received.length, 0, "creating contacts is not an update");
    const published = (from: number) =>
      hook.received
        .slice(from)
        .map((d) => `${d.event.type} ${d.event.data.email} [${d.event.data.tags.join(",")}]`)
        .sort();

    const added = await s.call("POST", "/api/v1/subscribers/bulk/tags/add", {
      body: { tags: ["vip"], emails: ["ada@example.com", "bo@example.com", "nobody@example.com"] },
    });
    t.like(added, { status: 200, body: { updated: 2 } });
    await drain();
    t.deepEqual(published(0), ["subscriber.updated ada@example.com [vip]", "subscriber.updated bo@example.com [vip]"]);

    // Tags a contact carries already change nothing, so nothing is published.
    t.is((await s.call("POST", "/api/v1/subscribers/bulk/tags/add", { body: { tags: ["vip"], emails: ["ada@example.com"] } })).status, 200);
    await drain();
    t.is(hook.received.length, 2);

    const removed = await s.call("POST", "/api/v1/subscribers/bulk/tags/remove", { body: { tags: ["vip"], emails: ["ada@example.com", "cy@example.com"] } });
    t.is(removed.status, 200);
    await drain();
    t.deepEqual(published(2), ["subscriber.updated ada@example.com []"]);

    // A background operation over every contact of the company: each one it tagged, not the other company's.
    const started = await s.call("POST", "/api/v1/subscribers/operations", { body: { kind: "add_tags", requestKey: "beta-1", tags: ["beta"] } });
    t.is(started.status, 202, JSON.stringify(started.body));
    await drain();
    t.like((await s.call("GET", `/api/v1/subscribers/operations/${started.body.operation.id}`)).body.operation, { status: "completed", succeeded: 3 });
    t.deepEqual(published(3), [
      "subscriber.updated ada@example.com [beta]",
      "subscriber.updated bo@example.com [beta,vip]",
      "subscriber.updated cy@example.com [beta]",
    ]);
    const ids = hook.received.map((d) => d.event.id);
    t.is(new Set(ids).size, ids.length);
  });

  test(name("deliver contact and email events signed, once each, with stable event IDs"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    const { id, secret } = await createWebhook(s, {
      name: "All",
      url: hook.url,
      events: [
        "subscriber.created",
        "subscriber.updated",
        "subscriber.unsubscribed",
        "email.sent",
        "email.delivery_delayed",
        "email.delivered",
        "email.bounced",
      ],
    });

    t.is((await addContact(s, "ada@example.com")).status, 200);
    t.is(hook.received.length, 0, "delivered by the worker, not in the request");
    await s.runJobs();
    t.is(hook.received.length, 1);
    const created = hook.received[0]!;
    t.true(signedWith(secret, created));
    t.false(signedWith("whsec_someone-else", created));
    t.is(created.headers["content-type"], "application/json");
    t.is(created.headers["x-sequenzy-timestamp"], String(Math.floor(s.api.clock.now().getTime() / 1000)));
    t.like(created.event, { type: "subscriber.created", object: "event", metric: "created", created_at: s.api.clock.now().toISOString() });
    t.like(created.event.data, { email: "ada@example.com", first_name: "Ada", status: "active" });
    t.regex(created.event.id, /^evt_/);

    const unsubscribed = await s.call("PATCH", "/api/v1/subscribers/ada@example.com", { body: { status: "unsubscribed" } });
    t.is(unsubscribed.status, 200);
    await s.runJobs();
    t.deepEqual(
      hook.received
        .slice(1)
        .map((d) => d.event.type)
        .sort(),
      ["subscriber.unsubscribed", "subscriber.updated"],
    );

    const sent = await s.call("POST", "/api/v1/transactional/send", { body: { to: "grace@example.com", subject: "Your receipt", body: "<p>Thanks</p>" } });
    t.is(sent.status, 200, JSON.stringify(sent.body));
    await s.runJobs();
    await s.runJobs();
    const emailSent = hook.received.find((d) => d.event.type === "email.sent");
    t.truthy(emailSent);
    t.true(signedWith(secret, emailSent!));
    t.like(emailSent!.event.data, { recipient: "grace@example.com", subject: "Your receipt", email_type: "transactional" });
    t.is(typeof emailSent!.event.data.email_send_id, "string");
    t.regex(emailSent!.event.data.message_id, /^<.+@.+>$/);

    // Provider events (here through the signed generic delivery webhook) follow, with the provider's facts.
    const sendId: string = emailSent!.event.data.email_send_id;
    const relaySecret = (await s.call("POST", "/api/v1/delivery-webhooks/secret")).body.secret;
    const relay = async (payload: Record<string, unknown>) => {
      const body = JSON.stringify(payload);
      const response = await fetch(`${s.api.server.url}/api/webhooks/generic/${s.a.companyId}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-signature": signWebhookBody(relaySecret, body) },
        body,
      });
      t.is(response.status, 200);
    };
    // A delay first: the relay keeps trying, and the send stays sent until it is delivered.
    await relay({ type: "delayed", emailSendId: sendId, occurredAt: "2026-11-22T10:00:30.000Z", id: "relay-0" });
    t.like((await s.call("GET", `/api/v1/email-sends/${sendId}`)).body.emailSend, { status: "sent" });
    await relay({ type: "delivered", emailSendId: sendId, occurredAt: "2026-11-22T10:01:00.000Z", id: "relay-1" });
    await relay({
      type: "bounced",
      emailSendId: sendId,
      bounceType: "Transient",
      bounceSubType: "MailboxFull",
      occurredAt: "2026-11-22T10:02:00.000Z",
      id: "relay-2",
    });
    await relay({
      type: "bounced",
      emailSendId: sendId,
      bounceType: "Transient",
      bounceSubType: "MailboxFull",
      occurredAt: "2026-11-22T10:02:00.000Z",
      id: "relay-2",
    });
    await s.runJobs();
    const delayed = hook.received.filter((d) => d.event.type === "email.delivery_delayed");
    t.is(delayed.length, 1);
    t.like(delayed[0]!.event, { created_at: "2026-11-22T10:00:30.000Z", data: { email_send_id: sendId, recipient: "grace@example.com" } });
    const delivered = hook.received.filter((d) => d.event.type === "email.delivered");
    const bounced = hook.received.filter((d) => d.event.type === "email.bounced");
    t.is(delivered.length, 1);
    t.is(bounced.length, 1, "a redelivered provider event is published once");
    t.like(delivered[0]!.event, { created_at: "2026-11-22T10:01:00.000Z", data: { email_send_id: sendId, recipient: "grace@example.com" } });
    t.like(bounced[0]!.event.data, { email_send_id: sendId, bounce_type: "Transient", bounce_sub_type: "MailboxFull" });
    t.true(signedWith(secret, bounced[0]!));

    // Every event once; the deliveries list shows them settled.
    const ids = hook.received.map((d) => d.event.id);
    t.is(new Set(ids).size, ids.length);
    const deliveries = await s.call("GET", `/api/v1/webhooks/${id}/deliveries?limit=100`);
    t.is(deliveries.status, 200);
    t.is(deliveries.body.deliveries.length, hook.received.length);
    t.true(deliveries.body.deliveries.every((d: any) => d.status === "succeeded" && d.responseCode === 200 && d.attempts === 1 && d.error === null));
    t.is((await s.call("GET", `/api/v1/webhooks/${id}/deliveries?limit=0`)).status, 422);

    // A disabled webhook is sent nothing new.
    await s.call("PATCH", `/api/v1/webhooks/${id}`, { body: { status: "disabled" } });
    await addContact(s, "lin@example.com");
    await s.runJobs();
    t.false(hook.received.some((d) => d.event.data.email === "lin@example.com"));
  });

  test(name("retry failed deliveries with back-off, open the circuit after 5 failures in a row, and give up after 7 days"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    hook.answer.status = 500;
    const { id } = await createWebhook(s, { name: "Flaky", url: hook.url, events: ["subscriber.created"] });
    const clock = s.api.clock;
    const started = clock.now().getTime();
    // The loop below reads faster than a key's 20 a second: it waits out a 429 as a client does.
    // Any other refusal is reported with its body, not as a missing field later.
    const read = async (path: string) => {
      let response = await s.call("GET", path);
      for (let tries = 0; response.status === 429 && tries < 5; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        response = await s.call("GET", path);
      }
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
      return response.body;
    };
    const deliveriesOf = async () => (await read(`/api/v1/webhooks/${id}/deliveries`)).deliveries as any[];
    const webhookNow = async () => (await read(`/api/v1/webhooks/${id}`)).webhook;

    await addContact(s, "one@example.com");
    await s.runJobs();
    let [delivery] = await deliveriesOf();
    t.like(delivery, { status: "pending", attempts: 1, responseCode: 500, error: "The endpoint answered HTTP 500: down for maintenance" });
    t.is(delivery.nextAttemptAt, new Date(started + 30 * SECOND).toISOString(), "first retry after 30 s");
    await s.runJobs();
    t.is(hook.received.length, 1, "nothing before its time");

    // 30 s, 60 s, 120 s, 240 s: the fifth failure in a row opens the circuit for a minute.
    for (const wait of [30, 60, 120, 240]) {
      clock.advance(wait * SECOND);
      await s.runJobs();
    }
    [delivery] = await deliveriesOf();
    t.is(delivery.attempts, 5);
    t.is(delivery.nextAttemptAt, new Date(clock.now().getTime() + 480 * SECOND).toISOString());
    let webhook = await webhookNow();
    t.is(webhook.consecutiveFailures, 5);
    t.is(webhook.circuitOpenedAt, clock.now().toISOString());
    t.is(webhook.circuitOpenUntil, new Date(clock.now().getTime() + 60 * SECOND).toISOString());

    // While it is open, new events wait for it to close.
    const requestsBefore = hook.received.length;
    await addContact(s, "two@example.com");
    await s.runJobs();
    t.is(hook.received.length, requestsBefore, "no request while the circuit is open");
    const waiting = (await deliveriesOf()).find((d) => d.attempts === 0)!;
    t.is(waiting.nextAttemptAt, webhook.circuitOpenUntil);

    // The endpoint recovers: once the rest is over, the waiting delivery goes and closes the circuit.
    hook.answer.status = 200;
    clock.advance(61 * SECOND);
    await s.runJobs();
    t.true(hook.received.some((d) => d.event.data.email === "two@example.com"));
    webhook = await webhookNow();
    t.like(webhook, { consecutiveFailures: 0, circuitOpenedAt: null, circuitOpenUntil: null });

    // The first event still retries on its own schedule, and succeeds now.
    clock.advance(480 * SECOND);
    await s.runJobs();
    const received = hook.received.filter((d) => d.event.data.email === "one@example.com");
    t.is(received.length, 6);
    t.is(new Set(received.map((d) => d.event.id)).size, 1, "the same event ID in every attempt");
    t.is(new Set(received.map((d) => d.body)).size, 1, "the same body in every attempt");
    t.like(
      (await deliveriesOf()).find((d) => d.id === delivery.id),
      { status: "succeeded", attempts: 6, responseCode: 200, error: null },
    );

    // An endpoint down for good: retried until 7 days after the event, then failed.
    hook.answer.status = 503;
    const eventAt = clock.now().getTime();
    await addContact(s, "three@example.com");
    for (let round = 0; round < 60; round += 1) {
      await s.runJobs();
      const current = (await deliveriesOf()).find((d) => d.status === "pending");
      if (!current) break;
      const hookNow = await webhookNow();
      const next = Math.max(Date.parse(current.nextAttemptAt), hookNow.circuitOpenUntil ? Date.parse(hookNow.circuitOpenUntil) : 0);
      clock.set(new Date(Math.max(next, clock.now().getTime())));
    }
    const failed = (await deliveriesOf()).find((d) => d.status === "failed");
    t.truthy(failed);
    t.like(failed, { responseCode: 503, nextAttemptAt: null });
    t.true(failed.attempts >= 12, `${failed.attempts} attempts`);
    t.true(Date.parse(failed.lastAttemptAt) <= eventAt + 7 * 24 * 3600 * SECOND);
    t.true(Date.parse(failed.lastAttemptAt) >= eventAt + 3 * 24 * 3600 * SECOND, "it kept trying for days");
    const three = hook.received.filter((d) => d.event.data.email === "three@example.com");
    t.is(three.length, failed.attempts);
  });

  test(
    name(
      "deliver a publish of many events in groups of jobs; a circuit opening mid-group postpones the rest, and a group run again makes only what it did not record",
    ),
    async (t) => {
      const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
      const hook = await receiver(t);
      const { id, secret } = await createWebhook(s, { name: "Bulk", url: hook.url, events: ["email.delivered"] });
      const knex = s.api.runtime.knex;
      const clock = s.api.clock;
      const publisher = s.api.runtime.container.get<WebhookPublisher>(WebhookPublisher);
      const publish = (run: string, n: number) =>
        publisher.publish(
          s.a.companyId,
          Array.from({ length: n }, (_, i) =>
            emailWebhookEvent(`eev_${run}_${i}`, "email.delivered", clock.now(), {
              emailSendId: `send_${run}_${i}`,
              messageId: `<send_${run}_${i}@acme.example>`,
              campaignId: null,
              sequenceId: null,
              transactionalEmailId: null,
              subscriberId: null,
              externalId: null,
              recipient: `reader-${i}@example.org`,
              subject: "Autumn",
              emailType: "campaign",
            }),
          ),
        );
      const queuedGroups = async () =>
        (await knex("jobs").where({ type: "webhook.deliver", status: "queued" }).orderBy("id")).map((job) => {
          const payload = typeof job.payload === "string" ? JSON.parse(job.payload) : job.payload;
          return { ids: payload.deliveryIds as string[], attempt: payload.attempt as number, runAt: new Date(job.run_at).toISOString() };
        });
      const deliveries = async () => (await s.call("GET", `/api/v1/webhooks/${id}/deliveries?limit=100`)).body.deliveries as any[];

      // Two groups and ten more in one publish: three jobs, each event delivered once, signed.
      hook.answer.byEvent = (event) => (Number(event.id.split("_").at(-1)) % 2 === 0 ? 200 : 202);
      const many = 2 * DELIVERIES_PER_JOB + 10;
      await publish("a", many);
      t.deepEqual(
        (await queuedGroups()).map((group) => [group.ids.length, group.attempt]),
        [
          [DELIVERIES_PER_JOB, 1],
          [DELIVERIES_PER_JOB, 1],
          [10, 1],
        ],
      );
      await s.runJobs();
      t.is(hook.received.length, many);
      t.deepEqual(hook.received.map((d) => d.event.id).sort(), Array.from({ length: many }, (_, i) => `eev_a_${i}`).sort());
      t.true(hook.received.every((d) => signedWith(secret, d)));
      // Each row keeps its own answer and time, though a job's successes are recorded together.
      t.deepEqual(
        (await deliveries()).map((d) => [d.eventId, d.status, d.attempts, d.responseCode, d.lastAttemptAt, d.deliveredAt, typeof d.durationMs]).sort(),
        Array.from({ length: many }, (_, i) => [
          `eev_a_${i}`,
          "succeeded",
          1,
          i % 2 === 0 ? 200 : 202,
          clock.now().toISOString(),
          clock.now().toISOString(),
          "number",
        ]).sort(),
      );

      delete hook.answer.byEvent;
      // The endpoint fails: the group's fifth failure in a row opens the circuit, and the other five wait for it in one job.
      hook.answer.status = 500;
      hook.received.length = 0;
      await publish("b", 10);
      await s.runJobs();
      t.is(hook.received.length, 5, "no request once the circuit is open");
      const webhook = (await s.call("GET", `/api/v1/webhooks/${id}`)).body.webhook;
      t.like(webhook, { consecutiveFailures: 5, circuitOpenedAt: clock.now().toISOString() });
      const tried = hook.received.map((d) => d.event.id);
      const waiting = (await deliveries()).filter((d) => d.status === "pending" && d.attempts === 0);
      t.is(waiting.length, 5);
      t.false(waiting.some((d) => tried.includes(d.eventId)));
      t.true(waiting.every((d) => d.nextAttemptAt === webhook.circuitOpenUntil));
      const groups = await queuedGroups();
      const postponed = groups.filter((group) => group.ids.length > 1);
      t.is(postponed.length, 1);
      t.like(postponed[0], { attempt: 1, runAt: webhook.circuitOpenUntil });
      t.deepEqual([...postponed[0]!.ids].sort(), waiting.map((d) => d.id).sort());
      t.is(groups.filter((group) => group.ids.length === 1 && group.attempt === 2).length, 5, "each failed delivery retries on its own");

      // Recovered: after the rest, the waiting five go, the five failed ones are retried, all once more.
      hook.answer.status = 200;
      clock.advance(61 * SECOND);
      await s.runJobs();
      t.is(hook.received.length, 15);
      t.is(new Set(hook.received.map((d) => d.event.id)).size, 10);
      t.true((await deliveries()).every((d) => d.status === "succeeded"));
      t.like((await s.call("GET", `/api/v1/webhooks/${id}`)).body.webhook, { consecutiveFailures: 0, circuitOpenUntil: null });

      // A group run again (its worker stopped before recording one attempt) makes that attempt only;
      // a job queued before grouping (one deliveryId) still runs.
      const [first, second, third] = (await knex("webhook_deliveries").where({ webhook_id: id }).orderBy("id")).map((row) => row.id as string);
      await knex("webhook_deliveries").whereIn("id", [first!, third!]).update({ status: "pending", attempts: 0 });
      const queue = s.api.runtime.container.get<JobQueue>(JobQueue);
      await queue.enqueue(webhookDeliveryJob(s.a.companyId, [first!, second!], 1));
      await queue.enqueue({ type: "webhook.deliver", companyId: s.a.companyId, payload: { deliveryId: third, attempt: 1 } });
      hook.received.length = 0;
      await s.runJobs();
      t.deepEqual(hook.received.map((d) => d.headers["x-sequenzy-delivery-id"]).sort(), [first, third].sort());

      // A group queued before its webhook was turned off fails without a request.
      hook.received.length = 0;
      await publish("c", 3);
      t.is((await s.call("PATCH", `/api/v1/webhooks/${id}`, { body: { status: "disabled" } })).status, 200);
      await s.runJobs();
      t.is(hook.received.length, 0);
      t.deepEqual(
        (await deliveries()).filter((d) => d.eventId.startsWith("eev_c_")).map((d) => [d.status, d.attempts, d.error]),
        Array.from({ length: 3 }, () => ["failed", 0, "The webhook was disabled before this delivery was made"]),
      );
    },
  );

  test(name("sign with both secrets during a rotation's grace period, and with the new one after it"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    const { id, secret: oldSecret } = await createWebhook(s, { name: "Rotating", url: hook.url, events: ["subscriber.created"] });

    const rotated = await s.call("POST", `/api/v1/webhooks/${id}/signing-secrets`, { body: { gracePeriodHours: 2 } });
    t.is(rotated.status, 200);
    const newSecret: string = rotated.body.webhook.signingSecret;
    t.regex(newSecret, /^whsec_/);
    t.not(newSecret, oldSecret);
    t.is(rotated.body.webhook.signingSecrets.length, 2);
    const [current, retiring] = [...rotated.body.webhook.signingSecrets].sort((x: any, y: any) => Number(x.expiresAt !== null) - Number(y.expiresAt !== null));
    t.is(current.prefix, newSecret.slice(0, 12));
    t.is(current.expiresAt, null);
    t.is(retiring.prefix, oldSecret.slice(0, 12));
    t.is(retiring.expiresAt, new Date(s.api.clock.now().getTime() + 2 * 3600 * SECOND).toISOString());
    t.false(JSON.stringify((await s.call("GET", "/api/v1/webhooks")).body).includes(newSecret));
    t.false(JSON.stringify(await s.api.runtime.knex("webhook_signing_secrets")).includes(newSecret));

    await addContact(s, "during@example.com");
    await s.runJobs();
    const during = hook.received.at(-1)!;
    t.is(String(during.headers["x-sequenzy-signature"]).split(",").length, 2);
    t.true(signedWith(oldSecret, during), "a receiver still on the old secret accepts it");
    t.true(signedWith(newSecret, during));

    s.api.clock.advance(2 * 3600 * SECOND + SECOND);
    await addContact(s, "after@example.com");
    await s.runJobs();
    const after = hook.received.at(-1)!;
    t.is(after.event.data.email, "after@example.com");
    t.false(signedWith(oldSecret, after));
    t.true(signedWith(newSecret, after));
    t.is((await s.call("GET", `/api/v1/webhooks/${id}`)).body.webhook.signingSecrets.length, 1);
    t.is((await s.call("POST", `/api/v1/webhooks/${id}/signing-secrets`, { body: { gracePeriodHours: 500 } })).status, 422);
  });

  test(name("test sends a sample event at once, and replay queues the same event again"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    const { id, secret } = await createWebhook(s, { name: "Test me", url: hook.url });

    const tested = await s.call("POST", `/api/v1/webhooks/${id}/test`);
    t.is(tested.status, 200);
    t.like(tested.body.delivery, { webhookId: id, eventType: "email.sent", status: "succeeded", attempts: 1, responseCode: 200, error: null });
    t.is(tested.body.webhook.id, id);
    t.is(tested.body.webhook.signingSecret, undefined);
    t.is(hook.received.length, 1);
    t.true(signedWith(secret, hook.received[0]!));
    t.like(hook.received[0]!.event, { type: "email.sent", data: { test: true } });

    hook.answer.status = 404;
    const failing = await s.call("POST", `/api/v1/webhooks/${id}/test`);
    t.like(failing.body.delivery, { status: "failed", responseCode: 404, nextAttemptAt: null });
    t.is(failing.body.webhook.consecutiveFailures, 1);

    hook.answer.status = 200;
    const original = tested.body.delivery;
    const replayed = await s.call("POST", `/api/v1/webhooks/${id}/deliveries/${original.id}/replay`);
    t.is(replayed.status, 200);
    t.like(replayed.body.delivery, { status: "pending", attempts: 0, eventId: original.eventId, replayOf: original.id });
    t.like(replayed.body.job, { status: "queued" });
    t.regex(replayed.body.job.id, /^job_/);
    await s.runJobs();
    t.is(hook.received.length, 3);
    t.is(hook.received[2]!.event.id, original.eventId);
    t.is(hook.received[2]!.body, hook.received[0]!.body);
    t.is((await s.call("POST", `/api/v1/webhooks/${id}/deliveries/whd_missing/replay`)).status, 404);

    await s.call("PATCH", `/api/v1/webhooks/${id}`, { body: { status: "disabled" } });
    const refused = await s.call("POST", `/api/v1/webhooks/${id}/deliveries/${original.id}/replay`);
    t.is(refused.status, 400);
    t.is(refused.body.success, false);
  });

  test(name("hear of imported contacts and finished sequences; settled deliveries go with the retention of delivery events"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    const { id, secret } = await createWebhook(s, { name: "Ops", url: hook.url, events: ["subscriber.created", "sequence.finished"] });

    const imported = await s.call("POST", "/api/v1/subscribers/imports", {
      body: { subscribers: [{ email: "imp-1@example.com" }, { email: "imp-2@example.com", firstName: "Bo" }], fileName: "people.csv" },
    });
    t.is(imported.status, 202, JSON.stringify(imported.body));
    await s.runJobs();
    t.deepEqual(hook.received.map((d) => [d.event.type, d.event.data.email]).sort(), [
      ["subscriber.created", "imp-1@example.com"],
      ["subscriber.created", "imp-2@example.com"],
    ]);
    t.true(hook.received.every((d) => signedWith(secret, d)));

    const sequenceId = await createAndEnable(s, {
      name: "Welcome",
      trigger: "event_received",
      eventName: "joined",
      steps: [{ subject: "Hi", html: "<p>Hi</p>" }],
    });
    t.is((await s.call("POST", "/api/v1/subscribers/events", { body: { email: "imp-1@example.com", event: "joined" } })).status, 200);
    await s.runJobs();
    await s.runJobs();
    const finished = hook.received.filter((d) => d.event.type === "sequence.finished");
    t.is(finished.length, 1);
    t.like(finished[0]!.event.data, { sequence_id: sequenceId, email: "imp-1@example.com", status: "completed", failed_reason: null });

    // After the delivery events' retention (400 days by default), the settled history is swept.
    const knex = s.api.runtime.knex;
    t.is(Number((await knex("webhook_deliveries").where({ webhook_id: id }).count({ n: "*" }).first())!.n), 3);
    s.api.clock.advance(401 * 24 * 3600 * SECOND);
    const swept = await s.api.runtime.container.get(SweepRetention).execute();
    t.true(swept.deliveryEvents >= 3);
    t.is(Number((await knex("webhook_deliveries").where({ webhook_id: id }).count({ n: "*" }).first())!.n), 0);
    t.is((await s.call("GET", `/api/v1/webhooks/${id}`)).status, 200, "the webhook itself stays");
  });

  test(name("hear of contacts joining and leaving lists, from every path that changes a membership (sequence steps too), once each"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    const { secret } = await createWebhook(s, { name: "Lists", url: hook.url, events: ["subscriber.list_subscribed", "subscriber.list_unsubscribed"] });
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    const ok = async (response: Promise<{ status: number; body: any }>) => {
      const answered = await response;
      t.true(answered.status >= 200 && answered.status < 300, JSON.stringify(answered.body));
    };
    // A contact created with the list; the list's add (Ann again: already a member); a contact saved without lists.
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", lists: [list.id] } }));
    await ok(s.call("POST", `/api/v1/lists/${list.id}/subscribers`, { body: { emails: ["bob@example.com", "ann@example.com"] } }));
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "dee@example.com" } }));
    // An import into the list: Cy is new, Ann and Bob are members already, Dee joins.
    await ok(
      s.call("POST", "/api/v1/subscribers/imports", {
        body: { duplicateStrategy: "merge", listIds: [list.id], subscribers: ["ann", "bob", "cy", "dee"].map((who) => ({ email: `${who}@example.com` })) },
      }),
    );
    await s.runJobs();
    // Bob is removed from the list; Ann unsubscribes, and leaves every list she is on.
    await ok(s.call("POST", `/api/v1/lists/${list.id}/subscribers/remove`, { body: { emails: ["bob@example.com"] } }));
    await ok(s.call("PATCH", "/api/v1/subscribers/ann%40example.com", { body: { status: "unsubscribed" } }));
    await s.runJobs();
    // A sequence's steps move Cy from the newsletter to the VIP list.
    const vip = (await s.call("POST", "/api/v1/lists", { body: { name: "VIP" } })).body.list;
    await createAndEnable(s, {
      name: "Upgrade",
      trigger: "event_received",
      eventName: "upgraded",
      steps: [
        { nodeType: "action_remove_from_list", config: { listId: list.id } },
        { nodeType: "action_add_to_list", config: { listId: vip.id } },
      ],
    });
    await ok(s.call("POST", "/api/v1/subscribers/events", { body: { email: "cy@example.com", event: "upgraded" } }));
    while ((await s.runJobs()) > 0);

    t.deepEqual(hook.received.map((d) => [d.event.type, d.event.data.email, d.event.data.list_name]).sort(), [
      ["subscriber.list_subscribed", "ann@example.com", "Newsletter"],
      ["subscriber.list_subscribed", "bob@example.com", "Newsletter"],
      ["subscriber.list_subscribed", "cy@example.com", "Newsletter"],
      ["subscriber.list_subscribed", "cy@example.com", "VIP"],
      ["subscriber.list_subscribed", "dee@example.com", "Newsletter"],
      ["subscriber.list_unsubscribed", "ann@example.com", "Newsletter"],
      ["subscriber.list_unsubscribed", "bob@example.com", "Newsletter"],
      ["subscriber.list_unsubscribed", "cy@example.com", "Newsletter"],
    ]);
    t.true(hook.received.every((d) => signedWith(secret, d) && d.event.data.list_id === (d.event.data.list_name === "VIP" ? vip.id : list.id)));
    t.is(new Set(hook.received.map((d) => d.event.id)).size, 8, "each event has an ID of its own");
    const cy = hook.received.find((d) => d.event.data.email === "cy@example.com")!.event.data;
    t.regex(cy.subscriber_id, /^sub_/);
    t.is(cy.external_id, null);
  });
}
