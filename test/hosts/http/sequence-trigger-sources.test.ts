import test from "ava";
import knexFactory from "knex";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signWebhookBody } from "../../../adapters/crypto/webhook-signatures.js";
import { importCsvFile } from "../../../hosts/cli/import-subscribers.js";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, DAY, MINUTE, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

/** A one-email sequence whose email's subject names it. */
const oneEmail = (subject: string, trigger: Record<string, unknown>) => ({ name: subject, steps: [{ subject, html: "<p>Hi</p>" }], ...trigger });

/** A sequence whose contacts wait a day after its first email: they are still running meanwhile. */
const twoEmails = (name: string, trigger: Record<string, unknown>) => ({
  name,
  steps: [
    { subject: `${name} one`, html: "<p>1</p>" },
    { subject: `${name} two`, html: "<p>2</p>", delayDays: 1 },
  ],
  ...trigger,
});

const ok = async (response: Promise<{ status: number; body: any }>) => {
  const answer = await response;
  if (answer.status !== 200 && answer.status !== 201 && answer.status !== 202) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};

const ALL = "active,waiting,completed,failed,cancelled";

const enrollments = async (s: SequenceSession, sequenceId: string, status = ALL, company = s.a) =>
  (await ok(s.call("GET", `/api/v1/sequences/${sequenceId}/enrollments?status=${status}&limit=100`, {}, company))).enrollments as Array<
    Record<string, unknown>
  >;

const emailsIn = async (s: SequenceSession, sequenceId: string, status?: string, company = s.a): Promise<string[]> =>
  (await enrollments(s, sequenceId, status, company)).map((enrollment) => enrollment.email as string).sort();

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence trigger sources ${title}`;

  test(name("contact_added for any contact, any list or one list, from creation, list adds and imports"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const one = (await ok(s.call("POST", "/api/v1/lists", { body: { name: "One" } }))).list.id;
    const two = (await ok(s.call("POST", "/api/v1/lists", { body: { name: "Two" } }))).list.id;
    const anyContact = await createAndEnable(s, oneEmail("Any contact", { trigger: "contact_added" }));
    const anyList = await createAndEnable(s, oneEmail("Any list", { trigger: "contact_added", listScope: "any_list" }));
    const listOne = await createAndEnable(s, oneEmail("List one", { trigger: "contact_added", listId: one }));
    const tagged = await createAndEnable(s, oneEmail("Tagged", { trigger: "tag_added", tagName: "vip" }));

    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", lists: [one] } }));
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "bob@example.com" } }));
    // Backdated contacts enter nothing unless asked to.
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "old@example.com", createdAt: "2026-01-01T00:00:00.000Z" } }));
    // A list add enrolls with enrollInSequences only: bob (known) joins two, cy is created.
    const added = await ok(
      s.call("POST", `/api/v1/lists/${two}/subscribers`, { body: { emails: ["bob@example.com", "cy@example.com"], enrollInSequences: true } }),
    );
    t.like(added, { added: 2, skipped: 0 });
    await ok(s.call("POST", `/api/v1/lists/${one}/subscribers`, { body: { emails: ["dee@example.com"] } }));
    // Imports too: their created contacts, through a job queued with the chunk.
    await ok(
      s.call("POST", "/api/v1/subscribers/imports", {
        body: { subscribers: [{ email: "eve@example.com", tags: ["VIP"] }, { email: "fay@example.com" }], listIds: [one], enrollInSequences: true },
      }),
    );
    await ok(s.call("POST", "/api/v1/subscribers/imports", { body: { subscribers: [{ email: "gus@example.com", tags: ["vip"] }], listIds: [one] } }));
    await s.runJobs();

    t.deepEqual(await emailsIn(s, anyContact), ["ann@example.com", "bob@example.com", "cy@example.com", "eve@example.com", "fay@example.com"]);
    t.deepEqual(await emailsIn(s, anyList), ["ann@example.com", "bob@example.com", "cy@example.com", "eve@example.com", "fay@example.com"]);
    t.deepEqual(await emailsIn(s, listOne), ["ann@example.com", "eve@example.com", "fay@example.com"]);
    t.deepEqual(await emailsIn(s, tagged), ["eve@example.com"], "an imported contact's tags start their sequences too");
    t.deepEqual(s.received()["ann@example.com"]?.sort(), ["Any contact", "Any list", "List one"]);
    t.is(s.received()["dee@example.com"], undefined);
    t.is(s.received()["gus@example.com"], undefined);
    t.is(s.received()["old@example.com"], undefined);

    // Another company's list add enters none of these.
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "zed@example.com" } }, s.b));
    await s.runJobs();
    t.is((await emailsIn(s, anyContact)).length, 5);
  });

  test(name("a contact's detail lists its runs through sequences, latest first, where each stands"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const welcome = await createAndEnable(s, oneEmail("Welcome", { trigger: "contact_added" }));
    const drip = await createAndEnable(s, twoEmails("Drip", { trigger: "tag_added", tagName: "vip" }));
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com" } }));
    await s.runJobs();
    s.api.clock.advance(MINUTE);
    await ok(s.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "vip" } }));
    await s.runJobs();

    const detail = (await ok(s.call("GET", "/api/v1/subscribers/ann%40example.com"))).subscriber;
    const dripSequence = (await ok(s.call("GET", `/api/v1/sequences/${drip}`))).sequence;
    // The run waits out the day's delay before the second email.
    const delay = dripSequence.nodes.find((node: { nodeType: string }) => node.nodeType === "logic_delay");
    const now = s.api.clock.now();
    t.deepEqual(
      detail.sequenceEnrollments.map((run: Record<string, unknown>) => ({ ...run, tokenId: typeof run.tokenId })),
      [
        {
          tokenId: "string",
          sequenceId: drip,
          sequenceName: "Drip",
          sequenceStatus: "active",
          enrollmentStatus: "waiting",
          currentNodeId: delay.id,
          currentNodeType: "logic_delay",
          currentNodeLabel: null,
          enteredAt: now.toISOString(),
          scheduledFor: new Date(now.getTime() + DAY).toISOString(),
          updatedAt: now.toISOString(),
        },
        {
          tokenId: "string",
          sequenceId: welcome,
          sequenceName: "Welcome",
          sequenceStatus: "active",
          enrollmentStatus: "completed",
          currentNodeId: detail.sequenceEnrollments[1].currentNodeId,
          currentNodeType: "completion",
          currentNodeLabel: null,
          enteredAt: new Date(now.getTime() - MINUTE).toISOString(),
          scheduledFor: null,
          updatedAt: new Date(now.getTime() - MINUTE).toISOString(),
        },
      ],
    );
    // Another company's contact of the same address has none of them.
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com" } }, s.b));
    t.deepEqual((await ok(s.call("GET", "/api/v1/subscribers/ann%40example.com", {}, s.b))).subscriber.sequenceEnrollments, []);
  });

  test(name("imports of existing contacts: a list joined or a tag got for the first time starts its sequences; what they had starts nothing"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const one = (await ok(s.call("POST", "/api/v1/lists", { body: { name: "One" } }))).list.id;
    const two = (await ok(s.call("POST", "/api/v1/lists", { body: { name: "Two" } }))).list.id;
    await createAndEnable(s, oneEmail("Any contact", { trigger: "contact_added" }));
    await createAndEnable(s, oneEmail("Any list", { trigger: "contact_added", listScope: "any_list" }));
    const listOne = await createAndEnable(s, oneEmail("List one", { trigger: "contact_added", listId: one }));
    await createAndEnable(s, oneEmail("Tagged", { trigger: "tag_added", tagName: "vip" }));
    // Backdated, so that creating them starts nothing: ann is in list one with the tag already.
    const createdAt = "2026-01-01T00:00:00.000Z";
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", lists: [one], tags: ["vip"], createdAt } }));
    for (const email of ["bob", "gil", "ivy"]) await ok(s.call("POST", "/api/v1/subscribers", { body: { email: `${email}@example.com`, createdAt } }));
    await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "cy@example.com", status: "unsubscribed", createdAt } }));
    await s.runJobs();
    t.deepEqual(s.received(), {});

    await ok(
      s.call("POST", "/api/v1/subscribers/imports", {
        body: {
          subscribers: [
            { email: "ann@example.com", tags: ["vip"] },
            { email: "bob@example.com", tags: ["VIP"] },
            { email: "cy@example.com", tags: ["vip"] },
            { email: "dan@example.com" },
          ],
          listIds: [one, two],
          duplicateStrategy: "merge",
          enrollInSequences: true,
        },
      }),
    );
    // Without enrollInSequences an existing contact joins quietly.
    await ok(
      s.call("POST", "/api/v1/subscribers/imports", {
        body: { subscribers: [{ email: "ivy@example.com", tags: ["vip"] }], listIds: [one], duplicateStrategy: "merge" },
      }),
    );
    await s.runJobs();
    // Only created contacts are new contacts; ann joined list two (she was in one, with the tag);
    // bob joined both and starts the any-list sequence once; cy is unsubscribed.
    const sorted = (received: Record<string, string[]>) => Object.fromEntries(Object.entries(received).map(([to, subjects]) => [to, subjects.sort()]));
    t.deepEqual(sorted(s.received()), {
      "ann@example.com": ["Any list"],
      "bob@example.com": ["Any list", "List one", "Tagged"],
      "dan@example.com": ["Any contact", "Any list", "List one"],
    });

    // The CLI's import, with --enroll-in-sequences, goes the same way; without it, nothing starts.
    const dir = mkdtempSync(join(tmpdir(), "sequence-csv-"));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "contacts.csv");
    writeFileSync(file, "email\ngil@example.com\nhal@example.com\n");
    const container = s.api.runtime.container;
    const quiet = join(dir, "quiet.csv");
    writeFileSync(quiet, "email\nivy@example.com\n");
    t.like(await importCsvFile(container, { companyId: s.a.companyId, file: quiet, duplicateStrategy: "merge", lists: [two] }), {
      status: "completed",
      updatedCount: 1,
    });
    const done = await importCsvFile(container, { companyId: s.a.companyId, file, duplicateStrategy: "merge", lists: [one], enrollInSequences: true });
    t.like(done, { status: "completed", addedCount: 1, updatedCount: 1 });
    await s.runJobs();
    t.deepEqual(sorted(s.received()), {
      "ann@example.com": ["Any list"],
      "bob@example.com": ["Any list", "List one", "Tagged"],
      "dan@example.com": ["Any contact", "Any list", "List one"],
      "gil@example.com": ["Any list", "List one"],
      "hal@example.com": ["Any contact", "Any list", "List one"],
    });
    t.deepEqual(await emailsIn(s, listOne), ["bob@example.com", "dan@example.com", "gil@example.com", "hal@example.com"]);
  });

  test(name("tag_added from the tag routes, PATCH, bulk tags and operations with triggerAutomations; tags carried already start nothing"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const vip = await createAndEnable(s, twoEmails("VIP", { trigger: "tag_added", tagName: "VIP" }));
    for (const email of ["ann", "bob", "cy", "dee", "eve", "fay"]) await ok(s.call("POST", "/api/v1/subscribers", { body: { email: `${email}@example.com` } }));

    await ok(s.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "vip" } }));
    await ok(s.call("POST", "/api/v1/subscribers/tags/bulk", { body: { email: "new@example.com", tags: ["vip", "beta"] } }));
    await ok(s.call("PATCH", "/api/v1/subscribers/bob%40example.com", { body: { tags: ["vip"] } }));
    const bulk = await ok(
      s.call("POST", "/api/v1/subscribers/bulk/tags/add", { body: { tags: ["vip"], emails: ["cy@example.com"], triggerAutomations: true } }),
    );
    t.like(bulk, { updated: 1, triggeredAutomations: true });
    const quiet = await ok(s.call("POST", "/api/v1/subscribers/bulk/tags/add", { body: { tags: ["vip"], emails: ["dee@example.com"] } }));
    t.like(quiet, { updated: 1, triggeredAutomations: false });
    const eve = (await ok(s.call("GET", "/api/v1/subscribers/eve%40example.com"))).subscriber.id;
    const fay = (await ok(s.call("GET", "/api/v1/subscribers/fay%40example.com"))).subscriber.id;
    await ok(
      s.call("POST", "/api/v1/subscribers/operations", {
        body: { kind: "add_tags", requestKey: "vip-1", tags: ["vip"], triggerAutomations: true, audience: { subscriberIds: [eve] } },
      }),
    );
    await ok(
      s.call("POST", "/api/v1/subscribers/operations", { body: { kind: "add_tags", requestKey: "vip-2", tags: ["vip"], audience: { subscriberIds: [fay] } } }),
    );
    await s.runJobs();
    const entered = ["ann@example.com", "bob@example.com", "cy@example.com", "eve@example.com", "new@example.com"];
    t.deepEqual(await emailsIn(s, vip), entered);

    // Tagging again (the tag is carried) starts nothing, and the other company's tags reach none of these.
    await ok(s.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "vip" } }));
    await ok(s.call("POST", "/api/v1/subscribers/tags", { body: { email: "dee@example.com", tag: "vip" } }, s.b));
    await s.runJobs();
    t.is((await enrollments(s, vip)).length, entered.length);
    t.deepEqual(Object.keys(s.received()).sort(), entered);
  });

  test(name("account events: each delivery lists the sequences it started"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const upgraded = await createAndEnable(s, oneEmail("Upgraded", { trigger: "event_received", eventName: "plan_changed" }));
    await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org-1", name: "Acme" } }));
    for (const [email, role] of [
      ["owner@acme.com", "owner"],
      ["admin@acme.com", "admin"],
    ])
      await ok(s.call("POST", "/api/v1/accounts/org-1/members", { body: { email, role } }));
    await ok(s.call("PATCH", "/api/v1/subscribers/admin%40acme.com", { body: { status: "unsubscribed" } }));

    const sent = await ok(s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "plan_changed", recipients: "all", eventId: "e-1" } }));
    t.deepEqual(Object.fromEntries(sent.deliveries.map((d: Record<string, unknown>) => [d.email, [d.success, d.automationsTriggered]])), {
      "owner@acme.com": [true, [upgraded]],
      "admin@acme.com": [true, []],
    });
    // A retry with the same eventId starts nothing again.
    const again = await ok(s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "plan_changed", recipients: "all", eventId: "e-1" } }));
    t.true(again.duplicate);
    await s.runJobs();
    t.deepEqual(s.received(), { "owner@acme.com": ["Upgraded"] });
  });

  test(name("a contact who unsubscribes, hard-bounces or complains leaves every sequence at once"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const first = await createAndEnable(s, twoEmails("First", { trigger: "event_received", eventName: "signed_up" }));
    const second = await createAndEnable(s, twoEmails("Second", { trigger: "event_received", eventName: "signed_up" }));
    for (const email of ["ann", "bob", "cy", "dee"])
      await ok(s.call("POST", "/api/v1/subscribers/events", { body: { email: `${email}@example.com`, event: "signed_up" } }));
    // Beta's ann runs Beta's own sequence: a's changes never touch it.
    const beta = await createAndEnable(s, twoEmails("Beta", { trigger: "event_received", eventName: "signed_up" }), s.b);
    await ok(s.call("POST", "/api/v1/subscribers/events", { body: { email: "ann@example.com", event: "signed_up" } }, s.b));
    await s.runJobs();

    await ok(s.call("PATCH", "/api/v1/subscribers/ann%40example.com", { body: { status: "unsubscribed" } }));
    // Before any job runs, ann is out of both.
    for (const id of [first, second])
      t.deepEqual(
        (await enrollments(s, id, "cancelled")).map((e) => [e.email, e.failedReason]),
        [["ann@example.com", "the contact is unsubscribed"]],
      );

    const secret = (await ok(s.call("POST", "/api/v1/delivery-webhooks/secret"))).secret as string;
    const sendOf = async (email: string) => (await ok(s.call("GET", `/api/v1/email-sends?recipient=${encodeURIComponent(email)}`))).emailSends[0].id as string;
    const relay = async (payload: Record<string, unknown>) => {
      const body = JSON.stringify(payload);
      const headers = { "content-type": "application/json", "x-signature": signWebhookBody(secret, body) };
      t.is((await fetch(`${s.api.server.url}/api/webhooks/generic/${s.a.companyId}`, { method: "POST", headers, body })).status, 200);
    };
    await relay({ type: "bounced", emailSendId: await sendOf("bob@example.com"), bounceType: "Permanent", bounceSubType: "General", id: "r-1" });
    await relay({ type: "complained", emailSendId: await sendOf("cy@example.com"), id: "r-2" });
    const reasons = async (id: string) => Object.fromEntries((await enrollments(s, id, "cancelled")).map((e) => [e.email, e.failedReason]));
    t.deepEqual(await reasons(second), {
      "ann@example.com": "the contact is unsubscribed",
      "bob@example.com": "the contact is bounced",
      "cy@example.com": "the contact complained (marked an email as spam)",
    });
    t.deepEqual(await emailsIn(s, first, "active,waiting"), ["dee@example.com"]);

    s.api.clock.advance(DAY + MINUTE);
    await s.runJobs();
    t.deepEqual([...s.received()["dee@example.com"]!].sort(), ["First one", "First two", "Second one", "Second two"]);
    for (const email of ["bob@example.com", "cy@example.com"])
      t.deepEqual([...s.received()[email]!].sort(), ["First one", "Second one"], `${email} got only the first emails`);
    // Two companies' ann: a's stopped after the first emails, b's went on.
    t.deepEqual([...s.received()["ann@example.com"]!].sort(), ["Beta one", "Beta two", "First one", "Second one"]);
    t.deepEqual(await emailsIn(s, beta, "completed", s.b), ["ann@example.com"], "the other company's ann went on");
  });

  test(name("enrollment modes: matching_field takes a contact once per value, and one with no value not at all"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const refused = await s.call("POST", "/api/v1/sequences", {
      body: oneEmail("Orders", { trigger: "event_received", eventName: "order_placed", enrollmentMode: "matching_field" }),
    });
    t.is(refused.status, 400);
    const orders = await createAndEnable(
      s,
      twoEmails("Order", { trigger: "event_received", eventName: "order_placed", enrollmentMode: "matching_field", enrollmentFieldPath: "event.orderId" }),
    );
    const order = (properties: Record<string, unknown>) =>
      ok(s.call("POST", "/api/v1/subscribers/events", { body: { email: "ann@example.com", event: "order_placed", properties } }));
    await order({ orderId: "A-1" });
    await order({ orderId: "A-2" });
    await order({ orderId: "A-1" });
    await order({ total: 5 });
    await s.runJobs();
    const running = await enrollments(s, orders, "active,waiting");
    t.deepEqual(running.map((e) => e.enrollmentKey).sort(), ["A-1", "A-2"]);

    // Cancelling by value: a dry run by default, then only A-2's run; a field the sequence does not use is refused.
    const cancel = (body: Record<string, unknown>) => s.call("POST", `/api/v1/sequences/${orders}/enrollments/cancel`, { body });
    t.like((await cancel({ fieldValues: ["A-2"] })).body, { dryRun: true, target: { mode: "field" }, matchedCount: 1, cancelledCount: 0 });
    t.is((await cancel({ fieldValues: ["A-2"], fieldPath: "event.total", dryRun: false })).status, 400);
    t.like((await cancel({ fieldValues: ["A-2"], fieldPath: "event.orderId", dryRun: false })).body, { matchedCount: 1, cancelledCount: 1 });
    t.deepEqual(
      (await enrollments(s, orders, "active,waiting")).map((e) => e.enrollmentKey),
      ["A-1"],
    );

    // Finished runs keep their value: A-1 does not run again, a new order does.
    s.api.clock.advance(DAY + MINUTE);
    await s.runJobs();
    await order({ orderId: "A-1" });
    await order({ orderId: "A-3" });
    await s.runJobs();
    t.deepEqual((await enrollments(s, orders)).map((e) => [e.enrollmentKey, e.status]).sort(), [
      ["A-1", "completed"],
      ["A-2", "cancelled"],
      ["A-3", "waiting"],
    ]);
    const plain = await createAndEnable(s, oneEmail("Plain", { trigger: "event_received", eventName: "x" }));
    t.is((await s.call("POST", `/api/v1/sequences/${plain}/enrollments/cancel`, { body: { fieldValues: ["A-1"] } })).status, 400);
  });

  test(name("frequency: a contact enters once its count of the event within the window reaches minCount, once per window"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const missing = await s.call("POST", "/api/v1/sequences", { body: oneEmail("Fans", { trigger: "frequency", eventName: "viewed", minCount: 3 }) });
    t.is(missing.status, 400);
    t.regex(missing.body.error, /timeWindowDays/);
    const fans = await createAndEnable(s, oneEmail("Fans", { trigger: "frequency", eventName: "viewed", minCount: 3, timeWindowDays: 7 }));
    const view = (email: string, occurredAt?: string) =>
      ok(s.call("POST", "/api/v1/subscribers/events", { body: { email, event: "viewed", ...(occurredAt ? { occurredAt } : {}) } }));
    await view("ann@example.com");
    await view("ann@example.com");
    await s.runJobs();
    t.deepEqual(await emailsIn(s, fans), []);
    await view("ann@example.com");
    await view("ann@example.com");
    // History counts toward bob's total, but only a live event lets him in.
    const earlier = new Date(s.api.clock.now().getTime() - 2 * 60 * MINUTE).toISOString();
    await view("bob@example.com", earlier);
    await view("bob@example.com", earlier);
    await s.runJobs();
    t.deepEqual(await emailsIn(s, fans), ["ann@example.com"]);
    await view("bob@example.com");
    await s.runJobs();
    t.deepEqual(await emailsIn(s, fans), ["ann@example.com", "bob@example.com"]);
    t.deepEqual(s.received(), { "ann@example.com": ["Fans"], "bob@example.com": ["Fans"] });

    // A window later, ann's old views no longer count: three new ones let her in again.
    s.api.clock.advance(8 * DAY);
    await view("ann@example.com");
    await view("ann@example.com");
    await s.runJobs();
    t.is((await enrollments(s, fans)).length, 2);
    await view("ann@example.com");
    await s.runJobs();
    t.deepEqual(s.received()["ann@example.com"], ["Fans", "Fans"]);
  });

  test(
    name("inactivity: contacts quiet for inactiveDays enter from the baseline, in batches of the periodic job, and again only after activity"),
    async (t) => {
      const s = await sequenceSession(t, dialect);
      await s.runJobs(); // registers the worker's schedules now: the hourly sweep is due from then on
      for (const email of ["ann", "bob"]) await ok(s.call("POST", "/api/v1/subscribers", { body: { email: `${email}@example.com` } }));
      const signup = await createAndEnable(s, oneEmail("Missed you", { trigger: "inactivity", inactiveDays: 30, inactivityBaseline: "subscriber_created_at" }));
      s.api.clock.advance(20 * DAY);
      // A sequence counting from its own creation gives everyone the full 30 days from now.
      const fromNow = await createAndEnable(s, oneEmail("Still there?", { trigger: "inactivity", inactiveDays: 30 }));
      await ok(s.call("POST", "/api/v1/subscribers/events", { body: { email: "bob@example.com", event: "logged_in" } }));
      await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "cy@example.com" } }));
      await ok(s.call("POST", "/api/v1/subscribers", { body: { email: "out@example.com", status: "unsubscribed" } }));

      s.api.clock.advance(11 * DAY);
      await s.runJobs();
      t.deepEqual(await emailsIn(s, signup), ["ann@example.com"]);
      t.deepEqual(await emailsIn(s, fromNow), []);

      s.api.clock.advance(20 * DAY);
      await s.runJobs();
      t.deepEqual(await emailsIn(s, signup), ["ann@example.com", "bob@example.com", "cy@example.com"]);
      t.deepEqual(await emailsIn(s, fromNow), ["ann@example.com", "bob@example.com", "cy@example.com"]);
      t.deepEqual(s.received()["ann@example.com"]?.sort(), ["Missed you", "Still there?"]);

      // Quiet since it entered: ann does not enter again; active again, then quiet for 30 days, bob does.
      s.api.clock.advance(MINUTE);
      await ok(s.call("POST", "/api/v1/subscribers/events", { body: { email: "bob@example.com", event: "logged_in" } }));
      s.api.clock.advance(31 * DAY);
      await s.runJobs();
      t.deepEqual(s.received()["ann@example.com"]?.length, 2);
      t.deepEqual(s.received()["bob@example.com"]?.sort(), ["Missed you", "Missed you", "Still there?", "Still there?"]);
      t.is(s.received()["out@example.com"], undefined);
    },
  );

  test(
    name("segment_entered: contacts entering the segment while the sequence is live enter it, and leave it with the segment (stopOnSegmentExit)"),
    async (t) => {
      const s = await sequenceSession(t, dialect);
      await s.runJobs(); // registers the worker's schedules now: the five-minute evaluation is due from then on
      const segment = (
        await ok(s.call("POST", "/api/v1/segments", { body: { name: "Pro", filters: [{ field: "attribute", operator: "is", value: "plan:pro" }] } }))
      ).segment.id;
      const contact = (email: string, plan: string, company = s.a) =>
        ok(s.call("POST", "/api/v1/subscribers", { body: { email, customAttributes: { plan } } }, company));
      const plan = (email: string, value: string) =>
        ok(s.call("PATCH", `/api/v1/subscribers/${encodeURIComponent(email)}`, { body: { customAttributes: { plan: value } } }));
      await contact("ann@example.com", "pro");
      await contact("bob@example.com", "free");
      const pro = await createAndEnable(s, twoEmails("Pro", { trigger: "segment_entered", segmentId: segment, stopOnSegmentExit: true }));

      // The first evaluation records who is there already: ann entered the segment before the sequence was live.
      s.api.clock.advance(5 * MINUTE);
      await s.runJobs();
      t.deepEqual(await emailsIn(s, pro), []);

      await plan("bob@example.com", "pro");
      await contact("cy@example.com", "pro");
      await contact("dee@example.com", "pro", s.b);
      s.api.clock.advance(5 * MINUTE);
      await s.runJobs();
      t.deepEqual(await emailsIn(s, pro), ["bob@example.com", "cy@example.com"]);

      await plan("bob@example.com", "free");
      s.api.clock.advance(5 * MINUTE);
      await s.runJobs();
      t.deepEqual(
        (await enrollments(s, pro, "cancelled")).map((e) => [e.email, e.failedReason]),
        [["bob@example.com", "the contact left the segment"]],
      );
      s.api.clock.advance(DAY);
      await s.runJobs();
      t.deepEqual(s.received(), { "bob@example.com": ["Pro one"], "cy@example.com": ["Pro one", "Pro two"] });
    },
  );

  test(name("userCancellable: the unsubscribe page of its emails also offers to stop only that sequence"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const course = await createAndEnable(s, { ...twoEmails("Course", { trigger: "event_received", eventName: "joined" }), userCancellable: true });
    const news = await createAndEnable(s, twoEmails("News", { trigger: "event_received", eventName: "joined" }));
    await ok(s.call("POST", "/api/v1/subscribers/events", { body: { email: "ann@example.com", event: "joined" } }));
    await s.runJobs();
    const unsubscribeToken = (subject: string) => {
      const message = s.transport.messages.find((captured) => captured.message.subject === subject)!.message;
      return /\/u\/([\w-]+\.[\w-]+)/.exec(message.html!)![1]!;
    };
    const page = (token: string) => fetch(`${s.api.server.url}/u/${token}`).then((response) => response.text());
    const leave = (token: string) => fetch(`${s.api.server.url}/u/${token}/sequence`, { method: "POST" });

    t.regex(await page(unsubscribeToken("Course one")), /Stop only these emails/);
    t.notRegex(await page(unsubscribeToken("News one")), /Stop only these emails/, "News does not let contacts stop it alone");
    t.is((await leave(unsubscribeToken("News one"))).status, 404);

    const left = await leave(unsubscribeToken("Course one"));
    t.is(left.status, 200);
    t.regex(await left.text(), /no longer receive the emails of Course/);
    t.is((await leave(unsubscribeToken("Course one"))).status, 200, "repeating it changes nothing");
    t.deepEqual(
      (await enrollments(s, course, "cancelled")).map((e) => [e.email, e.failedReason]),
      [["ann@example.com", "the contact stopped this sequence from an email"]],
    );
    t.notRegex(await page(unsubscribeToken("Course one")), /Stop only these emails/, "nothing left to stop");
    t.is((await ok(s.call("GET", "/api/v1/subscribers/ann%40example.com"))).subscriber.status, "active");
    s.api.clock.advance(DAY + MINUTE);
    await s.runJobs();
    t.deepEqual([...s.received()["ann@example.com"]!].sort(), ["Course one", "News one", "News two"]);
    t.deepEqual(await emailsIn(s, news, "completed"), ["ann@example.com"]);
  });

  test(name("warehouse syncs start the new contacts' contact_added sequences with triggerAutomations only"), async (t) => {
    const s = await sequenceSession(t, dialect, { allowPrivateDestinations: true });
    const dir = mkdtempSync(join(tmpdir(), "warehouse-"));
    const path = join(dir, "crm.sqlite");
    const file = knexFactory({ client: "better-sqlite3", connection: { filename: path }, useNullAsDefault: true });
    t.teardown(async () => {
      await file.destroy();
      rmSync(dir, { recursive: true, force: true });
    });
    await file.schema.createTable("people", (table) => {
      table.text("mail");
      table.text("kind");
    });
    await file("people").insert([
      { mail: "ann@example.com", kind: "on" },
      { mail: "bob@example.com", kind: "off" },
    ]);
    const welcome = await createAndEnable(s, oneEmail("Welcome", { trigger: "contact_added" }));
    const connection = (await ok(s.call("POST", "/api/v1/warehouse-connections", { body: { name: "File", kind: "sqlite", url: `sqlite:${path}` } }))).connection
      .id;
    for (const [kind, triggerAutomations] of [
      ["on", true],
      ["off", false],
    ] as const) {
      const sync = await ok(
        s.call("POST", "/api/v1/warehouse-syncs", {
          body: {
            connectionId: connection,
            name: kind,
            query: `select mail from people where kind = '${kind}'`,
            mapping: { emailColumn: "mail" },
            triggerAutomations,
          },
        }),
      );
      await ok(s.call("POST", `/api/v1/warehouse-syncs/${sync.sync.id}/run`, { body: {} }));
    }
    await s.runJobs();
    t.deepEqual(await emailsIn(s, welcome), ["ann@example.com"]);
    t.deepEqual(s.received(), { "ann@example.com": ["Welcome"] });
    t.is((await ok(s.call("GET", "/api/v1/subscribers/bob%40example.com"))).subscriber.email, "bob@example.com", "bob was synced");
  });
}
