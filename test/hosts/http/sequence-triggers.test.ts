import test from "ava";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, DAY, MINUTE, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

const welcome = (extra: Record<string, unknown> = {}) => ({
  name: "Welcome",
  steps: [{ subject: "Welcome", html: "<p>Hi</p>" }],
  ...extra,
});

const event = (s: SequenceSession, body: Record<string, unknown>, company = s.a) => s.call("POST", "/api/v1/subscribers/events", { body }, company);

const enrollmentCount = async (s: SequenceSession, sequenceId: string): Promise<number> =>
  (await s.call("GET", `/api/v1/sequences/${sequenceId}/enrollments?status=active,waiting,completed,failed,cancelled`)).body.pagination.total;

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence triggers ${title}`;

  test(name("an event starts only the sequences whose name and property filters match, and history starts nothing"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const pro = await createAndEnable(
      s,
      welcome({
        name: "Pro",
        trigger: "event_received",
        eventName: "upgraded",
        propertyFilters: [
          { path: "plan.tier", operator: "equals", value: "pro" },
          { path: "seats", operator: "greater_than", value: 2 },
        ],
      }),
    );
    const any = await createAndEnable(s, welcome({ name: "Any upgrade", trigger: "event_received", eventName: "upgraded" }));
    await event(s, { email: "ann@example.com", event: "upgraded", properties: { plan: { tier: "pro" }, seats: 5 } });
    await event(s, { email: "bob@example.com", event: "upgraded", properties: { plan: { tier: "basic" }, seats: 5 } });
    await event(s, { email: "cy@example.com", event: "downgraded", properties: { plan: { tier: "pro" }, seats: 5 } });
    const old = new Date(s.api.clock.now().getTime() - 2 * 60 * MINUTE).toISOString();
    await event(s, { email: "dee@example.com", event: "upgraded", occurredAt: old, properties: { plan: { tier: "pro" }, seats: 5 } });
    // The bulk route feeds the same entry point: of two events for fay, the live one starts "Any upgrade".
    const bulk = await s.call("POST", "/api/v1/subscribers/events/bulk", {
      body: { email: "fay@example.com", events: [{ name: "upgraded", occurredAt: old }, { name: "upgraded" }] },
    });
    t.is(bulk.status, 200, JSON.stringify(bulk.body));
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Welcome", "Welcome"], "bob@example.com": ["Welcome"], "fay@example.com": ["Welcome"] });
    t.is(await enrollmentCount(s, pro), 1);
    t.is(await enrollmentCount(s, any), 3);

    // Paused enrollments and a disabled sequence take no one; the other company's event reaches none of these.
    await s.call("POST", `/api/v1/sequences/${pro}/pause-enrollments`);
    await s.call("POST", `/api/v1/sequences/${any}/disable`);
    await event(s, { email: "eve@example.com", event: "upgraded", properties: { plan: { tier: "pro" }, seats: 5 } });
    await event(s, { email: "ann@example.com", event: "upgraded", properties: { plan: { tier: "pro" }, seats: 5 } }, s.b);
    await s.runJobs();
    t.is(await enrollmentCount(s, pro), 1);
    t.is(await enrollmentCount(s, any), 3);
    t.is(s.transport.messages.length, 4);
  });

  test(name("a new contact starts contact_added sequences; under double opt-in only once it confirms"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, welcome({ trigger: "contact_added" }));
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com" } })).status, 200);
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "out@example.com", status: "unsubscribed" } })).status, 200);
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Welcome"] }, "an unsubscribed contact is not enrolled");

    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    const created = await s.call("POST", "/api/v1/subscribers", { body: { email: "bob@example.com" } });
    t.like(created.body.optIn, { required: true });
    await s.runJobs();
    t.deepEqual(s.received()["bob@example.com"], ["Confirm your subscription to Acme"], "only the confirmation email until bob confirms");
    t.is(await enrollmentCount(s, id), 1);

    const link = /\/c\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(s.transport.messages.at(-1)!.message.html!)![1]!;
    t.is((await fetch(`${s.api.server.url}/c/${link}`, { method: "POST" })).status, 200);
    await s.runJobs();
    t.deepEqual(s.received()["bob@example.com"], ["Confirm your subscription to Acme", "Welcome"]);
    t.is(await enrollmentCount(s, id), 2);
  });

  test(name("a contact who unsubscribes leaves at once and is sent nothing more"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, {
      name: "Drip",
      trigger: "event_received",
      eventName: "signed_up",
      steps: [
        { subject: "One", html: "<p>1</p>" },
        { subject: "Two", html: "<p>2</p>", delayDays: 1 },
      ],
    });
    await event(s, { email: "ann@example.com", event: "signed_up" });
    await event(s, { email: "bob@example.com", event: "signed_up" });
    await s.runJobs();
    t.is((await s.call("PATCH", "/api/v1/subscribers/ann%40example.com", { body: { status: "unsubscribed" } })).status, 200);
    t.is((await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=cancelled`)).body.enrollments.length, 1, "before any step runs");
    s.api.clock.advance(DAY + MINUTE);
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["One"], "bob@example.com": ["One", "Two"] });
    const cancelled = await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=cancelled`);
    t.deepEqual(
      cancelled.body.enrollments.map((e: Record<string, unknown>) => [e.email, e.failedReason, e.subscriberStatus]),
      [["ann@example.com", "the contact is unsubscribed", "unsubscribed"]],
    );
  });

  test(name("one company never sees or enrolls into another's sequence"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, welcome({ trigger: "event_received", eventName: "signed_up" }));
    await event(s, { email: "ann@example.com", event: "signed_up" });
    await s.runJobs();
    const [enrollment] = (await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=completed`)).body.enrollments;
    t.truthy(enrollment);
    // Beta has its own ann: a's sequence is not found from b, in any route.
    await event(s, { email: "ann@example.com", event: "other" }, s.b);
    const bAnn = (await s.call("GET", "/api/v1/subscribers/ann%40example.com", {}, s.b)).body.subscriber.id;
    t.is((await s.call("GET", `/api/v1/sequences/${id}/enrollments`, {}, s.b)).status, 404);
    t.is((await s.call("GET", `/api/v1/sequences/${id}/enrollments/${enrollment.enrollmentId}`, {}, s.b)).status, 404);
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { subscriberIds: [bAnn] } }, s.b)).status, 404);
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enrollments/cancel`, { body: { cancelAll: true, dryRun: false } }, s.b)).status, 404);
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enable`, {}, s.b)).status, 404);
    // A contact of b named in a's request is not found there.
    const fromA = await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { subscriberIds: [bAnn] } });
    t.like(fromA.body, { enrolled: 0, skipped: 0, notFound: [bAnn] });
    t.is(s.transport.messages.length, 1);
  });

  test(name("a disabled sequence freezes its contacts where they are, and enabling it again moves them on"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, {
      name: "Drip",
      trigger: "event_received",
      eventName: "signed_up",
      steps: [
        { subject: "One", html: "<p>1</p>" },
        { subject: "Two", html: "<p>2</p>", delayDays: 1 },
      ],
    });
    await event(s, { email: "ann@example.com", event: "signed_up" });
    await s.runJobs();
    t.is((await s.call("POST", `/api/v1/sequences/${id}/disable`)).status, 200);
    s.api.clock.advance(2 * DAY);
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["One"] }, "nothing moves while it is disabled");
    t.like((await s.call("GET", `/api/v1/sequences/${id}/enrollments`)).body.enrollments[0], { status: "waiting", currentNodeType: "logic_delay" });

    // Enrolled by hand into the disabled sequence, bob waits at the first step too.
    await s.call("POST", "/api/v1/subscribers", { body: { email: "bob@example.com" } });
    t.like((await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { emails: ["bob@example.com"] } })).body, { enrolled: 1 });
    await s.runJobs();
    t.is(s.transport.messages.length, 1);

    t.is((await s.call("POST", `/api/v1/sequences/${id}/enable`)).status, 200);
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["One", "Two"], "bob@example.com": ["One"] });
  });
}
