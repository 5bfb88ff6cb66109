import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import test, { type ExecutionContext } from "ava";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A webhook receiver on loopback: `/offer` answers JSON, `/broken` a 500, `/slow` never; every request is kept. */
async function receiver(t: ExecutionContext): Promise<{ url: string; requests: Received[] }> {
  const requests: Received[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (chunk: Buffer) => parts.push(chunk));
    request.on("end", () => {
      requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body: Buffer.concat(parts).toString("utf8") });
      if (request.url === "/slow") return;
      if (request.url === "/broken") {
        response.writeHead(500).end("down");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ coupon: "SAVE10", tier: "gold" }));
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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const event = (s: SequenceSession, body: Record<string, unknown>) => s.call("POST", "/api/v1/subscribers/events", { body });

async function enrollmentOf(s: SequenceSession, sequenceId: string): Promise<Record<string, unknown>> {
  const listed = await s.call("GET", `/api/v1/sequences/${sequenceId}/enrollments?status=active,waiting,completed,failed,cancelled`);
  return listed.body.enrollments[0];
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence webhooks ${title}`;

  test(name("a webhook step sends the contact and event, and its JSON answer fills later emails and attributes"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    await createAndEnable(s, {
      name: "Offer",
      trigger: "event_received",
      eventName: "joined",
      steps: [
        {
          nodeType: "action_webhook",
          config: {
            url: `${hook.url}/offer?plan={{event.plan}}&who={{email}}`,
            headers: { "X-Shop-Token": "t0ken" },
            body: '{"email":"{{email}}","plan":"{{event.plan}}","seats":"{{event.seats}}"}',
            resultKey: "offer",
          },
        },
        { subject: "Your code {{offer.coupon}}", html: "<p>Tier {{offer.tier}}</p>" },
        { type: "update_subscriber", customAttributeUpdates: [{ name: "tier", value: "{{offer.tier}}" }] },
      ],
    });
    t.is((await event(s, { email: "ann@example.com", event: "joined", properties: { plan: "pro", seats: 3 } })).status, 200);
    await s.runJobs();

    t.is(hook.requests.length, 1);
    const [request] = hook.requests;
    t.like(request, { method: "POST", path: "/offer?plan=pro&who=ann%40example.com" }, "references in the URL are filled, encoded");
    t.deepEqual(JSON.parse(request!.body), { email: "ann@example.com", plan: "pro", seats: 3 }, "a value that is only a reference keeps its type");
    t.is(request!.headers["x-shop-token"], "t0ken");
    t.is(request!.headers["content-type"], "application/json");
    t.regex(String(request!.headers["idempotency-key"]), /^enr_.+-1$/);
    t.deepEqual(s.received(), { "ann@example.com": ["Your code SAVE10"] });
    t.regex(s.transport.messages[0]!.message.html!, /Tier gold/);
    t.like((await s.call("GET", "/api/v1/subscribers/ann%40example.com")).body.subscriber.customAttributes, { tier: "gold" });
  });

  test(name("a failing webhook continues, exits or fails the enrollment as onError says"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const hook = await receiver(t);
    const broken = (onError?: string) => ({
      nodeType: "action_webhook",
      config: { url: `${hook.url}/broken`, method: "PUT", ...(onError ? { onError } : {}) },
    });
    const ids: Record<string, string> = {};
    for (const onError of ["continue", "exit", "fail"]) {
      ids[onError] = await createAndEnable(s, {
        name: `On error ${onError}`,
        trigger: "event_received",
        eventName: onError,
        steps: [onError === "continue" ? broken() : broken(onError), { subject: `After ${onError}`, html: "<p>after</p>" }],
      });
      t.is((await event(s, { email: `${onError}@example.com`, event: onError })).status, 200);
    }
    await s.runJobs();

    t.is(hook.requests.length, 3);
    t.true(hook.requests.every((request) => request.method === "PUT" && JSON.parse(request.body).subscriber.email.endsWith("@example.com")));
    t.deepEqual(s.received(), { "continue@example.com": ["After continue"] }, "onError continue (the default) goes on");
    t.like(await enrollmentOf(s, ids.exit!), { status: "completed", failedReason: "the webhook answered HTTP 500" });
    t.like(await enrollmentOf(s, ids.fail!), { status: "failed", failedReason: "the webhook answered HTTP 500" });

    // A receiver that never answers is given up on after the time limit (10 s).
    const slow = await createAndEnable(s, {
      name: "Slow",
      trigger: "event_received",
      eventName: "slow",
      steps: [{ nodeType: "action_webhook", config: { url: `${hook.url}/slow`, onError: "fail" } }],
    });
    t.is((await event(s, { email: "slow@example.com", event: "slow" })).status, 200);
    const started = Date.now();
    await s.runJobs();
    t.true(Date.now() - started >= 9_000);
    t.like(await enrollmentOf(s, slow), { status: "failed", failedReason: `${hook.url} did not answer in time` });
  });

  test(name("webhooks call public HTTPS addresses only: loopback is refused unless private destinations are allowed"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const hook = await receiver(t);
    const id = await createAndEnable(s, {
      name: "Internal",
      trigger: "event_received",
      eventName: "joined",
      steps: [{ nodeType: "action_webhook", config: { url: `${hook.url}/offer`, onError: "fail" } }],
    });
    t.is((await event(s, { email: "ann@example.com", event: "joined" })).status, 200);
    await s.runJobs();
    t.is(hook.requests.length, 0, "nothing reached the loopback server");
    const enrollment = await enrollmentOf(s, id);
    t.is(enrollment.status, "failed");
    t.regex(String(enrollment.failedReason), /^Could not reach http:\/\/127\.0\.0\.1:\d+: its address is private or reserved/);

    const plain = await s.call("POST", "/api/v1/sequences", {
      body: { name: "Plain", steps: [{ nodeType: "action_webhook", config: { url: "http://hooks.example.com/x" } }] },
    });
    t.is(plain.status, 422);
    t.regex(plain.body.error, /must be an absolute https:\/\/ URL/);
    t.is((await s.call("GET", "/api/v1/sequences")).body.sequences.length, 1, "nothing stored");
  });
}
