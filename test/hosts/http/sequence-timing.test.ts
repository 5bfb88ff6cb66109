import test from "ava";
import { RealignSendingWindowJob } from "../../../core/sequences/realign-sending-window.js";
import { dialects } from "../../helpers/databases.js";
import { failInsertsInto } from "../../helpers/injected-failure.js";
import { BASE_URL } from "../../helpers/runtime.js";
import { createAndEnable, DAY, MINUTE, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

/** Weekdays, 09:00-17:00 in Paris. */
const OFFICE_HOURS = {
  enabled: true,
  timezone: "Europe/Paris",
  days: ["monday", "tuesday", "wednesday", "thursday", "friday"],
  startTime: "09:00",
  endTime: "17:00",
};

const CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const event = (s: SequenceSession, body: Record<string, unknown>, company = s.a) => s.call("POST", "/api/v1/subscribers/events", { body }, company);

/** Each contact's enrollment in the sequence as the enrollments list shows it, by email. */
async function enrollmentsByEmail(s: SequenceSession, sequenceId: string, company = s.a): Promise<Record<string, Record<string, unknown>>> {
  const listed = await s.call("GET", `/api/v1/sequences/${sequenceId}/enrollments?status=active,waiting,completed,failed,cancelled&limit=100`, {}, company);
  return Object.fromEntries(listed.body.enrollments.map((e: Record<string, unknown>) => [e.email, e]));
}

/** The outcomes of a contact's recorded steps, in order. */
async function outcomes(s: SequenceSession, sequenceId: string, email: string): Promise<string[]> {
  const enrollment = (await enrollmentsByEmail(s, sequenceId))[email]!;
  const steps = await s.api.runtime
    .knex("sequence_enrollment_steps")
    .where({ enrollment_id: String(enrollment.enrollmentId) })
    .orderBy("step_number");
  return steps.map((step) => step.outcome);
}

const at = (s: SequenceSession, offsetMs: number) => new Date(s.api.clock.now().getTime() + offsetMs).toISOString();

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence timing ${title}`;

  test(name("a wait for an event ends when the contact records it (filters passed, not history, not another company's), else times out"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const wait = (extra: Record<string, unknown>) => ({
      nodeType: "logic_wait_for_event",
      config: { eventName: "activated", timeoutDays: 2, ...extra },
    });
    const strict = await createAndEnable(s, {
      name: "Activation",
      trigger: "event_received",
      eventName: "signed_up",
      steps: [
        { subject: "Welcome", html: "<p>Hi</p>" },
        wait({ timeoutAction: "exit", propertyFilters: [{ path: "plan", operator: "equals", value: "pro" }] }),
        { subject: "Activated", html: "<p>Thanks</p>" },
      ],
    });
    const lenient = await createAndEnable(s, {
      name: "Nudge",
      trigger: "event_received",
      eventName: "trial_started",
      steps: [wait({}), { subject: "Next", html: "<p>Next</p>" }],
    });
    const beta = await createAndEnable(
      s,
      {
        name: "Beta activation",
        trigger: "event_received",
        eventName: "signed_up",
        steps: [wait({ timeoutAction: "exit" }), { subject: "Beta activated", html: "<p>b</p>" }],
      },
      s.b,
    );

    for (const email of ["ann@example.com", "bob@example.com", "cy@example.com"]) t.is((await event(s, { email, event: "signed_up" })).status, 200);
    t.is((await event(s, { email: "dee@example.com", event: "trial_started" })).status, 200);
    t.is((await event(s, { email: "ann@example.com", event: "signed_up" }, s.b)).status, 200);
    await s.runJobs();
    const waitNode = (await s.call("GET", `/api/v1/sequences/${strict}`)).body.sequence.nodes.find(
      (node: { nodeType: string }) => node.nodeType === "logic_wait_for_event",
    );
    const waiting = await enrollmentsByEmail(s, strict);
    t.like(waiting["ann@example.com"], { status: "waiting", currentNodeId: waitNode.id, currentNodeType: "logic_wait_for_event", waitUntil: at(s, 2 * DAY) });

    s.api.clock.advance(MINUTE);
    t.is((await event(s, { email: "ann@example.com", event: "activated", properties: { plan: "pro" } })).status, 200);
    t.is((await event(s, { email: "bob@example.com", event: "activated", properties: { plan: "basic" } })).status, 200);
    const old = at(s, -2 * 60 * MINUTE);
    t.is((await event(s, { email: "cy@example.com", event: "activated", occurredAt: old, properties: { plan: "pro" } })).status, 200);
    await s.runJobs();
    t.deepEqual(
      s.received(),
      { "ann@example.com": ["Welcome", "Activated"], "bob@example.com": ["Welcome"], "cy@example.com": ["Welcome"] },
      "the event woke Ann's wait at once, long before its timeout; Bob's event fails the filter and Cy's is history",
    );
    t.deepEqual(await outcomes(s, strict, "ann@example.com"), ["email_queued", "waiting_for_event", "event_received", "email_queued"]);
    t.like((await enrollmentsByEmail(s, beta, s.b))["ann@example.com"], { status: "waiting" }, "Acme's event does not end Beta's wait");

    s.api.clock.advance(2 * DAY);
    await s.runJobs();
    const ended = await enrollmentsByEmail(s, strict);
    t.like(ended["ann@example.com"], { status: "completed", failedReason: null });
    for (const email of ["bob@example.com", "cy@example.com"])
      t.like(ended[email], { status: "completed", failedReason: "no 'activated' event came before the wait timed out" });
    t.like((await enrollmentsByEmail(s, lenient))["dee@example.com"], { status: "completed" });
    t.deepEqual(s.received()["dee@example.com"], ["Next"], "timeoutAction continue (the default) goes on after the timeout");
    t.deepEqual(s.received()["bob@example.com"], ["Welcome"]);
  });

  test(
    name("an event that concerned no sequence is asked about again once a sequence listens for it, a goal waits for it or a run waits for it"),
    async (t) => {
      const s = await sequenceSession(t, dialect);
      t.is((await event(s, { email: "ann@example.com", event: "activated" })).status, 200, "nothing listens for it yet");
      const hello = await createAndEnable(s, {
        name: "Hello",
        trigger: "event_received",
        eventName: "activated",
        steps: [{ subject: "Hello", html: "<p>Hi</p>" }],
      });
      t.is((await event(s, { email: "ann@example.com", event: "activated" })).status, 200);
      await s.runJobs();
      t.deepEqual(s.received(), { "ann@example.com": ["Hello"] }, "the sequence enabled since hears the same event");

      t.is((await event(s, { email: "ann@example.com", event: "upgraded" })).status, 200, "no goal waits for it yet");
      const goal = await s.call("POST", `/api/v1/sequences/${hello}/goals`, {
        body: { name: "Upgrade", triggerEventName: "upgraded", attributionWindowHours: 24 },
      });
      t.is(goal.status, 200, JSON.stringify(goal.body));
      s.api.clock.advance(MINUTE);
      t.is((await event(s, { email: "ann@example.com", event: "upgraded" })).status, 200);
      t.is((await s.call("GET", `/api/v1/sequences/${hello}/goals`)).body.goals[0].conversionCount, 1, "the goal added since is reached by the same event");

      const confirmation = await createAndEnable(s, {
        name: "Confirmation",
        trigger: "event_received",
        eventName: "signed_up",
        steps: [
          { nodeType: "logic_wait_for_event", config: { eventName: "confirmed", timeoutDays: 2 } },
          { subject: "Confirmed", html: "<p>Thanks</p>" },
        ],
      });
      t.is((await event(s, { email: "bob@example.com", event: "confirmed" })).status, 200, "no run waits for it yet");
      t.is((await event(s, { email: "bob@example.com", event: "signed_up" })).status, 200);
      await s.runJobs();
      t.like((await enrollmentsByEmail(s, confirmation))["bob@example.com"], { status: "waiting" });
      t.is((await event(s, { email: "bob@example.com", event: "confirmed" })).status, 200);
      await s.runJobs();
      t.deepEqual(s.received()["bob@example.com"], ["Confirmed"], "the run that started waiting since is woken by the same event");
    },
  );

  test(name("a delay until a date field of the contact, with an offset, or until a weekday window in a time zone"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const renewal = await createAndEnable(s, {
      name: "Renewal",
      trigger: "event_received",
      eventName: "subscribed",
      steps: [
        {
          nodeType: "logic_delay",
          config: { delay: { mode: "until_date", untilDateField: "renewsAt", days: 1, untilOffsetDirection: "before", untilMissingAction: "exit" } },
        },
        { subject: "Renewal tomorrow", html: "<p>Soon</p>" },
      ],
    });
    const monday = await createAndEnable(s, {
      name: "Monday",
      trigger: "event_received",
      eventName: "asked",
      steps: [
        { nodeType: "logic_delay", config: { waitUntilWeekday: { days: ["monday"], startTime: "09:00", endTime: "10:00", timezone: "America/New_York" } } },
        { subject: "Monday morning", html: "<p>Monday</p>" },
      ],
    });
    // Now is Sunday 22 November 2026, 11:00 in Paris: inside this window, so no wait.
    await createAndEnable(s, {
      name: "Sunday",
      trigger: "event_received",
      eventName: "asked",
      steps: [
        {
          nodeType: "logic_delay",
          config: { delay: { mode: "until_weekday", untilDays: ["sunday"], untilStartTime: "09:00", untilEndTime: "12:00", untilTimezone: "Europe/Paris" } },
        },
        { subject: "Sunday", html: "<p>Sunday</p>" },
      ],
    });

    const contact = (email: string, customAttributes: Record<string, unknown>) => s.call("POST", "/api/v1/subscribers", { body: { email, customAttributes } });
    t.is((await contact("ann@example.com", { renewsAt: "2026-11-25T10:00:00.000Z" })).status, 200);
    t.is((await contact("bob@example.com", {})).status, 200);
    t.is((await contact("cy@example.com", { renewsAt: "2026-11-01" })).status, 200);
    for (const email of ["ann@example.com", "bob@example.com", "cy@example.com"]) t.is((await event(s, { email, event: "subscribed" })).status, 200);
    t.is((await event(s, { email: "dee@example.com", event: "asked" })).status, 200);
    await s.runJobs();

    const renewals = await enrollmentsByEmail(s, renewal);
    t.like(renewals["ann@example.com"], { status: "waiting", waitUntil: "2026-11-24T10:00:00.000Z" }, "a day before the date in renewsAt");
    t.like(renewals["bob@example.com"], { status: "completed", failedReason: "the contact has no date in 'renewsAt'" }, "untilMissingAction exit");
    t.like(renewals["cy@example.com"], { status: "completed" }, "a date already passed: no wait");
    t.like((await enrollmentsByEmail(s, monday))["dee@example.com"], { status: "waiting", waitUntil: "2026-11-23T14:00:00.000Z" }, "Monday 09:00 in New York");
    t.deepEqual(s.received(), { "cy@example.com": ["Renewal tomorrow"], "dee@example.com": ["Sunday"] });

    s.api.clock.set(new Date("2026-11-23T14:00:30.000Z"));
    await s.runJobs();
    t.deepEqual(s.received()["dee@example.com"], ["Sunday", "Monday morning"]);
    t.false("ann@example.com" in s.received(), "Ann's date is still ahead");
    s.api.clock.set(new Date("2026-11-24T10:00:30.000Z"));
    await s.runJobs();
    t.deepEqual(s.received()["ann@example.com"], ["Renewal tomorrow"]);
    t.false("bob@example.com" in s.received());
  });

  test(name("an email step due outside the sequence's sending window waits for its next opening; a window with no day cannot be enabled"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const window = OFFICE_HOURS;
    const id = await createAndEnable(s, {
      name: "Office hours",
      trigger: "event_received",
      eventName: "joined",
      sendingWindow: window,
      steps: [
        { nodeType: "action_add_tag", config: { tagName: "joined" } },
        { subject: "Hello", html: "<p>Hello</p>" },
      ],
    });
    t.is((await event(s, { email: "ann@example.com", event: "joined" })).status, 200);
    await s.runJobs();
    t.deepEqual(s.received(), {}, "Sunday: nothing is sent");
    const emailNode = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence.nodes.find(
      (node: { nodeType: string }) => node.nodeType === "action_email",
    );
    t.like((await enrollmentsByEmail(s, id))["ann@example.com"], {
      status: "waiting",
      currentNodeId: emailNode.id,
      waitUntil: "2026-11-23T08:00:00.000Z",
    });
    t.deepEqual((await s.call("GET", "/api/v1/subscribers/ann%40example.com")).body.subscriber.tags, ["joined"], "steps other than emails run at once");

    s.api.clock.set(new Date("2026-11-23T07:59:00.000Z"));
    await s.runJobs();
    t.deepEqual(s.received(), {});
    s.api.clock.set(new Date("2026-11-23T08:00:30.000Z"));
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Hello"] }, "Monday 09:00 in Paris");
    t.deepEqual(await outcomes(s, id, "ann@example.com"), ["tag_added", "outside_sending_window", "email_queued"]);

    const closed = await s.call("POST", "/api/v1/sequences", { body: { name: "Never", sendingWindow: { ...window, days: [] } } });
    t.is(closed.status, 200);
    const refused = await s.call("POST", `/api/v1/sequences/${closed.body.sequence.id}/enable`);
    t.is(refused.status, 400);
    t.regex(refused.body.error, /sendingWindow has no days/);
    t.like((await s.call("GET", `/api/v1/sequences/${closed.body.sequence.id}`)).body.sequence, { status: "draft" });
  });

  test(name("conditions: a click in the previous email, an event in this run or since the previous email, a segment"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const pro: string = (
      await s.call("POST", "/api/v1/segments", { body: { name: "Pro", filters: [{ field: "attribute", operator: "is", value: "plan:pro" }] } })
    ).body.segment.id;
    const html = '<p><a href="https://acme.example/pricing">See pricing</a> or <a href="https://acme.example/blog">read the blog</a></p>';
    const created = await s.call("POST", "/api/v1/sequences", {
      body: {
        name: "Nurture",
        trigger: "event_received",
        eventName: "signed_up",
        steps: [
          { subject: "Pricing", html },
          { nodeType: "logic_delay", config: { delayHours: 24 } },
        ],
      },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.sequence.id;
    const delay = created.body.sequence.nodes.find((node: { nodeType: string }) => node.nodeType === "logic_delay");
    const step = (subject: string) => [{ subject, html: `<p>${subject}</p>` }];
    const branched = await s.call("PUT", `/api/v1/sequences/${id}`, {
      body: {
        branch: {
          afterNodeId: delay.id,
          branches: [
            {
              id: "clicked",
              conditionType: "link_clicked",
              linkUrl: "https://acme.example/pricing",
              activityScope: "previous_email",
              steps: step("Clicked"),
            },
            { id: "paid", conditionType: "event_received", eventName: "paid", activityScope: "this_sequence", steps: step("Paid") },
            { id: "pro", conditionType: "in_segment", segmentId: pro, steps: step("Pro") },
            { id: "replied", conditionType: "event_received", eventName: "replied", activityScope: "previous_email", steps: step("Replied") },
          ],
          elseSteps: step("Still there"),
        },
      },
    });
    t.is(branched.status, 200, JSON.stringify(branched.body));
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enable`)).status, 200);

    // Dee paid before she signed up: not in this run.
    t.is((await event(s, { email: "dee@example.com", event: "paid" })).status, 200);
    s.api.clock.advance(MINUTE);
    for (const email of ["ann", "bob", "cy", "dee", "eve", "fay", "gus"])
      t.is((await event(s, { email: `${email}@example.com`, event: "signed_up" })).status, 200);
    // Gus replies in this run, but before the email went out: not since the previous email.
    s.api.clock.advance(1_000);
    t.is((await event(s, { email: "gus@example.com", event: "replied" })).status, 200);
    s.api.clock.advance(1_000);
    await s.runJobs();

    // Well after the send (a click within seconds of it is a machine's), as a person in a browser.
    s.api.clock.advance(10 * MINUTE);
    const click = async (email: string, destination: string) => {
      const message = s.transport.messages.find((captured) => captured.message.to === email)!.message;
      const link = new RegExp(`href="([^"]+)"[^>]*>${destination === "https://acme.example/pricing" ? "See pricing" : "read the blog"}`).exec(
        message.html ?? "",
      )![1]!;
      const response = await fetch(link.replace(BASE_URL, s.api.server.url), { redirect: "manual", headers: { "user-agent": CHROME } });
      t.deepEqual([response.status, response.headers.get("location")], [302, destination]);
    };
    await click("ann@example.com", "https://acme.example/pricing");
    await click("bob@example.com", "https://acme.example/blog");
    t.is((await event(s, { email: "cy@example.com", event: "paid" })).status, 200);
    t.is((await s.call("PATCH", "/api/v1/subscribers/dee%40example.com", { body: { customAttributes: { plan: "pro" } } })).status, 200);
    t.is((await event(s, { email: "fay@example.com", event: "replied" })).status, 200);

    s.api.clock.advance(DAY);
    await s.runJobs();
    t.deepEqual(s.received(), {
      "ann@example.com": ["Pricing", "Clicked"],
      "bob@example.com": ["Pricing", "Still there"],
      "cy@example.com": ["Pricing", "Paid"],
      "dee@example.com": ["Pricing", "Pro"],
      "eve@example.com": ["Pricing", "Still there"],
      "fay@example.com": ["Pricing", "Replied"],
      "gus@example.com": ["Pricing", "Still there"],
    });
  });

  test(name("the entered_segment stop condition ends the runs of contacts who enter the segment, not of those already in it"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const pro: string = (
      await s.call("POST", "/api/v1/segments", { body: { name: "Pro", filters: [{ field: "attribute", operator: "is", value: "plan:pro" }] } })
    ).body.segment.id;
    const upgrade = await createAndEnable(s, {
      name: "Upgrade",
      trigger: "event_received",
      eventName: "upgrading",
      stopCondition: { type: "entered_segment", value: pro },
      steps: [
        { subject: "Upgrade one", html: "<p>1</p>" },
        { subject: "Upgrade two", html: "<p>2</p>", delayDays: 1 },
      ],
    });
    // Kay is in the segment before she enrolls: she never enters it.
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "kay@example.com", customAttributes: { plan: "pro" } } })).status, 200);
    for (const email of ["ivy@example.com", "jo@example.com", "kay@example.com"]) t.is((await event(s, { email, event: "upgrading" })).status, 200);
    await s.runJobs();

    s.api.clock.advance(MINUTE);
    t.is((await s.call("PATCH", "/api/v1/subscribers/ivy%40example.com", { body: { customAttributes: { plan: "pro" } } })).status, 200);
    const checked = await s.call("GET", `/api/v1/sequences/${upgrade}/enrollments?stopConditionMatch=true`);
    t.deepEqual(Object.fromEntries(checked.body.enrollments.map((e: Record<string, unknown>) => [e.email, e.stopConditionMatches])), {
      "ivy@example.com": true,
      "jo@example.com": false,
      "kay@example.com": false,
    });
    s.api.clock.advance(DAY);
    await s.runJobs();
    t.deepEqual(s.received(), {
      "ivy@example.com": ["Upgrade one"],
      "jo@example.com": ["Upgrade one", "Upgrade two"],
      "kay@example.com": ["Upgrade one", "Upgrade two"],
    });
    t.like((await enrollmentsByEmail(s, upgrade))["ivy@example.com"], {
      status: "completed",
      failedReason: `stop condition met: the contact entered segment ${pro}`,
    });
  });

  test(name("realign-sending-window: a dry run says what would move; applied as a job, waiting runs move to the window as it is now"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const weekdays = OFFICE_HOURS;
    const id = await createAndEnable(s, {
      name: "Office hours",
      trigger: "event_received",
      eventName: "joined",
      sendingWindow: weekdays,
      steps: [{ subject: "Hello", html: "<p>Hello</p>" }],
    });
    // Sunday 10:00 UTC: both wait for Monday 09:00 in Paris.
    for (const email of ["ann@example.com", "bob@example.com"]) t.is((await event(s, { email, event: "joined" })).status, 200);
    await s.runJobs();
    const monday = "2026-11-23T08:00:00.000Z";
    const realign = `/api/v1/sequences/${id}/enrollments/realign-sending-window`;
    const untouched = await s.call("POST", realign, {});
    t.like(untouched.body, { dryRun: true, scannedCount: 2, realignedCount: 0, unchangedCount: 2, unchangedReasons: { already_aligned: 2 }, hasMore: false });
    // nodeIds narrow the runs read: none waits at the trigger.
    const trigger = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence.nodes.find((node: { nodeType: string }) => node.nodeType === "trigger");
    t.like((await s.call("POST", realign, { body: { nodeIds: [trigger.id] } })).body, { scannedCount: 0, realignedCount: 0, hasMore: false });

    // The window now opens every day: the runs could go at once.
    const widened = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { sendingWindow: { ...weekdays, days: undefined } } });
    t.is(widened.status, 200, JSON.stringify(widened.body));
    const dry = await s.call("POST", realign, { body: { subscriberIds: [(await s.call("GET", "/api/v1/subscribers/ann%40example.com")).body.subscriber.id] } });
    t.is(dry.status, 200, JSON.stringify(dry.body));
    const now = s.api.clock.now().toISOString();
    t.like(dry.body, { dryRun: true, scannedCount: 1, realignedCount: 1, unchangedCount: 0, requeueFailedCount: 0, hasMore: false, nextCursor: null });
    t.like(dry.body.changes, [{ email: "ann@example.com", fromWaitUntil: monday, toWaitUntil: now }]);
    t.deepEqual(s.received(), {}, "a dry run changes nothing");

    const applied = await s.call("POST", realign, { body: { dryRun: false } });
    t.is(applied.status, 200, JSON.stringify(applied.body));
    t.like(applied.body, { success: true, dryRun: false, status: "queued" });
    const job = `${realign}/jobs/${applied.body.jobId}`;
    t.like((await s.call("GET", job)).body, { status: "queued", result: { scannedCount: 0 }, error: null });
    await s.runJobs();
    await s.runJobs();
    t.like((await s.call("GET", job)).body, {
      status: "completed",
      result: { scannedCount: 2, realignedCount: 2, unchangedCount: 0, requeueFailedCount: 0 },
      error: null,
    });
    t.deepEqual(s.received(), { "ann@example.com": ["Hello"], "bob@example.com": ["Hello"] });

    t.is((await s.call("GET", job, {}, s.b)).status, 404, "another company's job is not found");
    t.is((await s.call("POST", realign, {}, s.b)).status, 404);
    t.is((await s.call("POST", realign, { body: { nodeIds: [] } })).status, 422);
  });

  test(name("realign-sending-window pages through more waiting runs than one page holds, dry run and job alike"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, {
      name: "Office hours",
      trigger: "contact_added",
      sendingWindow: OFFICE_HOURS,
      steps: [{ subject: "Hello", html: "<p>Hello</p>" }],
    });
    // Sunday: 1,001 imported contacts all wait for Monday, two full pages and one more.
    const subscribers = Array.from({ length: 1001 }, (_, i) => ({ email: `c${i}@example.com` }));
    t.is((await s.call("POST", "/api/v1/subscribers/imports", { body: { subscribers, enrollInSequences: true } })).status, 202);
    await s.runJobs();
    await s.runJobs();
    t.deepEqual(s.received(), {});
    t.is((await s.call("PUT", `/api/v1/sequences/${id}`, { body: { sendingWindow: { ...OFFICE_HOURS, days: undefined } } })).status, 200);

    const realign = `/api/v1/sequences/${id}/enrollments/realign-sending-window`;
    const pages: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    do {
      const page = await s.call("POST", realign, { body: cursor ? { cursor } : {} });
      t.is(page.status, 200, JSON.stringify(page.body));
      pages.push(page.body);
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor && pages.length < 5);
    t.deepEqual(
      pages.map((page) => [page.scannedCount, page.realignedCount, page.hasMore]),
      [
        [500, 500, true],
        [500, 500, true],
        [1, 1, false],
      ],
    );
    t.deepEqual(s.received(), {}, "dry runs change nothing");

    const applied = await s.call("POST", realign, { body: { dryRun: false } });
    t.is(applied.status, 200, JSON.stringify(applied.body));
    await s.runJobs();
    await s.runJobs();
    t.like((await s.call("GET", `${realign}/jobs/${applied.body.jobId}`)).body, {
      status: "completed",
      result: { scannedCount: 1001, realignedCount: 1001, unchangedCount: 0, requeueFailedCount: 0 },
    });
    const received = s.received();
    t.is(Object.keys(received).length, 1001);
    t.true(Object.values(received).every((subjects) => subjects.length === 1 && subjects[0] === "Hello"));
  });

  test(name("a realignment whose job cannot be queued is not stored: the request fails whole and can be made again"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, {
      name: "Office hours",
      trigger: "event_received",
      eventName: "joined",
      sendingWindow: OFFICE_HOURS,
      steps: [{ subject: "Hello", html: "<p>Hello</p>" }],
    });
    const knex = s.api.runtime.knex;
    // The queue refuses this one job type, as a database would refuse a write it cannot take.
    const restore = await failInsertsInto(knex, "jobs", RealignSendingWindowJob.type);
    const realign = `/api/v1/sequences/${id}/enrollments/realign-sending-window`;
    t.is((await s.call("POST", realign, { body: { dryRun: false } })).status, 500);
    t.deepEqual(await knex("sequence_realignments").select("id"), [], "no realignment is left queued without its job");

    await restore();
    const applied = await s.call("POST", realign, { body: { dryRun: false } });
    t.is(applied.status, 200, JSON.stringify(applied.body));
    await s.runJobs();
    t.like((await s.call("GET", `${realign}/jobs/${applied.body.jobId}`)).body, { status: "completed", result: { scannedCount: 0 } });
  });

  test(name("a met stop condition ends the enrollment before its next step, with the reason"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const drip = (name: string, eventName: string, stopCondition: Record<string, unknown>) =>
      createAndEnable(s, {
        name,
        trigger: "event_received",
        eventName,
        stopCondition,
        steps: [
          { subject: `${name} one`, html: "<p>1</p>" },
          { subject: `${name} two`, html: "<p>2</p>", delayDays: 1 },
        ],
      });
    const purchase = await drip("Cart", "carted", {
      type: "event_received",
      value: "purchased",
      matchConfig: { mode: "event_property_filter", propertyFilters: [{ path: "total", operator: "greater_than", value: 10 }] },
    });
    const vip = await drip("Upsell", "browsed", { type: "has_tag", value: "VIP" });
    const plan = await drip("Plan", "trialing", { type: "field_changed", value: "plan" });
    const listId: string = (await s.call("POST", "/api/v1/lists", { body: { name: "Members" } })).body.list.id;
    t.is((await s.call("POST", `/api/v1/lists/${listId}/subscribers`, { body: { emails: ["gil@example.com", "hal@example.com"] } })).status, 200);
    const members = await drip("Members", "renewing", { type: "removed_from_list", value: listId });

    for (const email of ["ann@example.com", "bob@example.com"]) t.is((await event(s, { email, event: "carted" })).status, 200);
    for (const email of ["cy@example.com", "dee@example.com"]) t.is((await event(s, { email, event: "browsed" })).status, 200);
    for (const email of ["eve@example.com", "fay@example.com"]) t.is((await event(s, { email, event: "trialing" })).status, 200);
    for (const email of ["gil@example.com", "hal@example.com"]) t.is((await event(s, { email, event: "renewing" })).status, 200);
    await s.runJobs();

    s.api.clock.advance(MINUTE);
    t.is((await event(s, { email: "ann@example.com", event: "purchased", properties: { total: 50 } })).status, 200);
    t.is((await event(s, { email: "bob@example.com", event: "purchased", properties: { total: 5 } })).status, 200);
    t.is((await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "cy@example.com", tag: "vip" } })).status, 200);
    t.is((await s.call("PATCH", "/api/v1/subscribers/eve%40example.com", { body: { customAttributes: { plan: "pro" } } })).status, 200);
    t.is((await s.call("POST", `/api/v1/lists/${listId}/subscribers/remove`, { body: { emails: ["gil@example.com"] } })).status, 200);
    // Listed with stopConditionMatch, each waiting enrollment is checked now, before its next step.
    const checked = await s.call("GET", `/api/v1/sequences/${purchase}/enrollments?stopConditionMatch=true`);
    t.is(checked.status, 200, JSON.stringify(checked.body));
    t.is(checked.body.stopConditionMatchEvaluatedCount, 2);
    t.deepEqual(
      checked.body.enrollments
        .map((e: Record<string, unknown>) => [e.email, e.status, e.stopConditionMatches, e.stopConditionMatchReason])
        .sort((x: string[], y: string[]) => x[0]!.localeCompare(y[0]!)),
      [
        ["ann@example.com", "waiting", true, "stop condition met: the contact recorded event 'purchased'"],
        ["bob@example.com", "waiting", false, null],
      ],
    );
    t.is((await s.call("GET", `/api/v1/sequences/${purchase}/enrollments?stopConditionMatch=true&limit=101`)).status, 400);
    t.is((await s.call("GET", `/api/v1/sequences/${purchase}/enrollments`)).body.enrollments[0].stopConditionMatches, null, "not asked: not checked");

    s.api.clock.advance(DAY);
    await s.runJobs();

    t.deepEqual(s.received(), {
      "ann@example.com": ["Cart one"],
      "bob@example.com": ["Cart one", "Cart two"],
      "cy@example.com": ["Upsell one"],
      "dee@example.com": ["Upsell one", "Upsell two"],
      "eve@example.com": ["Plan one"],
      "fay@example.com": ["Plan one", "Plan two"],
      "gil@example.com": ["Members one"],
      "hal@example.com": ["Members one", "Members two"],
    });
    t.like((await enrollmentsByEmail(s, members))["gil@example.com"], {
      status: "completed",
      failedReason: `stop condition met: the contact was removed from list ${listId}`,
    });
    t.like((await enrollmentsByEmail(s, purchase))["ann@example.com"], {
      status: "completed",
      failedReason: "stop condition met: the contact recorded event 'purchased'",
    });
    t.like((await enrollmentsByEmail(s, vip))["cy@example.com"], { status: "completed", failedReason: "stop condition met: the contact has tag 'VIP'" });
    t.like((await enrollmentsByEmail(s, plan))["eve@example.com"], { status: "completed", failedReason: "stop condition met: field 'plan' changed to pro" });
    t.like((await enrollmentsByEmail(s, plan))["fay@example.com"], { status: "completed", failedReason: null });

    const valueless = await s.call("POST", "/api/v1/sequences", { body: { name: "No value", stopCondition: { type: "has_tag" } } });
    t.regex(
      (await s.call("POST", `/api/v1/sequences/${valueless.body.sequence.id}/enable`)).body.error,
      /stopCondition type 'has_tag' needs a value \(the tag name\)/,
    );
  });
}
