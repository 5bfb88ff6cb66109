import test from "ava";
import { ENROLLMENTS_IN_FLIGHT } from "../../../core/sequences/advance-enrollments.js";
import { EnrollmentRepository } from "../../../core/sequences/enrollment-ports.js";
import { insertContactRows } from "../../helpers/contact-rows.js";
import { dialects } from "../../helpers/databases.js";
import { failInsertsInto } from "../../helpers/injected-failure.js";
import { createAndEnable, DAY, MINUTE, sequenceSession } from "../../helpers/sequence-session.js";

/** The client's create body: event trigger, one_time, email -> 1 day -> email. */
const ONBOARDING = {
  name: "Onboarding",
  description: "Welcome series",
  trigger: "event_received",
  eventName: "signed_up",
  enrollmentMode: "one_time",
  steps: [
    { subject: "Welcome {{firstName}}", html: "<p>Your plan: {{event.plan}}</p>" },
    { subject: "Tips", html: "<p>Tips</p>", delayDays: 1 },
  ],
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence engine ${title}`;

  test(
    name("the official client's scenario: create, get, list, enable, trigger by event, enroll, enrollments, a day later the second email, disable"),
    async (t) => {
      const s = await sequenceSession(t, dialect);
      const created = await s.call("POST", "/api/v1/sequences", { body: ONBOARDING });
      t.is(created.status, 200);
      const id: string = created.body.sequence.id;
      t.is((await s.call("GET", `/api/v1/sequences/${id}`)).status, 200);
      t.is((await s.call("GET", "/api/v1/sequences")).body.sequences.length, 1);
      const enabled = await s.call("POST", `/api/v1/sequences/${id}/enable`);
      t.like(enabled.body, { sequenceId: id, status: "active", effectiveStatus: "live" });

      // Bob exists before; Ann is created by her event.
      t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "bob@example.com", firstName: "Bob" } })).status, 200);
      const event = await s.call("POST", "/api/v1/subscribers/events", {
        body: { email: "ann@example.com", event: "signed_up", properties: { plan: "pro" }, firstName: "Ann" },
      });
      t.is(event.status, 200, JSON.stringify(event.body));
      t.false("sideEffectFailures" in event.body, "starting the sequence did not fail");
      await s.runJobs();
      t.deepEqual(s.received(), { "ann@example.com": ["Welcome Ann"] });
      const welcome = s.transport.messages[0]!.message;
      t.is(welcome.from.email, "hello@acme.example");
      t.regex(welcome.html!, /Your plan: pro/, "{{event.x}} is the trigger event's property");

      const enrolled = await s.call("POST", `/api/v1/sequences/${id}/enroll`, {
        body: { emails: ["bob@example.com", "ann@example.com", "nobody@example.com"] },
      });
      t.is(enrolled.status, 200, JSON.stringify(enrolled.body));
      t.like(enrolled.body, { enrolled: 1, skipped: 1, notFound: ["nobody@example.com"] });
      t.is(enrolled.body.sequence.id, id);
      t.like(enrolled.body.enrollments[0], { sequenceId: id, email: "bob@example.com", status: "active", currentNodeMissing: false });
      await s.runJobs();
      t.deepEqual(s.received(), { "ann@example.com": ["Welcome Ann"], "bob@example.com": ["Welcome Bob"] });

      const waiting = await s.call("GET", `/api/v1/sequences/${id}/enrollments?sort=enrolled_at_asc`);
      t.is(waiting.status, 200);
      t.like(waiting.body, {
        sequenceId: id,
        sequenceName: "Onboarding",
        statuses: ["active", "waiting"],
        stopCondition: { type: "none" },
        stopConditionMatchEvaluatedCount: 0,
        pagination: { limit: 50, offset: 0, count: 2, total: 2, hasMore: false },
      });
      const delayNode = created.body.sequence.nodes.find((node: { nodeType: string }) => node.nodeType === "logic_delay");
      t.deepEqual(
        waiting.body.enrollments.map((e: Record<string, unknown>) => [e.email, e.status, e.currentNodeId, e.currentNodeType, e.waitUntil]),
        [
          ["ann@example.com", "waiting", delayNode.id, "logic_delay", "2026-11-23T10:00:00.000Z"],
          ["bob@example.com", "waiting", delayNode.id, "logic_delay", "2026-11-23T10:00:00.000Z"],
        ],
      );
      for (const enrollment of waiting.body.enrollments) {
        for (const field of ["enrollmentId", "sequenceId", "subscriberId", "status", "currentNodeId", "enrollmentStartedAt"])
          t.is(typeof enrollment[field], "string");
        t.is(enrollment.currentNodeMissing, false);
      }
      const one = await s.call("GET", `/api/v1/sequences/${id}/enrollments/${waiting.body.enrollments[0].enrollmentId}`);
      t.like(one.body.enrollment, { email: "ann@example.com", status: "waiting", firstName: "Ann", subscriberStatus: "active" });

      // Nothing more until the day has passed.
      s.api.clock.advance(DAY - MINUTE);
      await s.runJobs();
      t.is(s.transport.messages.length, 2);
      s.api.clock.advance(2 * MINUTE);
      await s.runJobs();
      t.deepEqual(s.received(), { "ann@example.com": ["Welcome Ann", "Tips"], "bob@example.com": ["Welcome Bob", "Tips"] });
      t.is((await s.call("GET", `/api/v1/sequences/${id}/enrollments`)).body.enrollments.length, 0);
      const completed = await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=completed`);
      t.deepEqual(
        completed.body.enrollments.map((e: Record<string, unknown>) => [e.status, e.currentNodeType, e.failedReason]),
        [
          ["completed", "completion", null],
          ["completed", "completion", null],
        ],
      );
      const sends = await s.api.runtime.knex("email_sends").where({ company_id: s.a.companyId });
      t.true(sends.every((send) => send.email_type === "sequence" && send.automation_id === id));
      t.like((await s.call("GET", "/api/v1/metrics?emailType=sequence")).body.stats, { sent: 4 });
      t.like((await s.call("GET", "/api/v1/metrics?emailType=transactional")).body.stats, { sent: 0 });

      // one_time: the same event again enrolls no one.
      await s.call("POST", "/api/v1/subscribers/events", { body: { email: "ann@example.com", event: "signed_up", properties: { plan: "pro" } } });
      await s.runJobs();
      t.is(s.transport.messages.length, 4);

      const disabled = await s.call("POST", `/api/v1/sequences/${id}/disable`);
      t.like(disabled.body, { sequenceId: id, status: "paused", effectiveStatus: "paused", acceptsNewEnrollments: false });
    },
  );

  test(name("new runs are taken ahead of a backlog of due follow-ups, and a burst of new runs does not hold the backlog back"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const { knex, container } = s.api.runtime;
    const id = await createAndEnable(s, ONBOARDING);
    const contacts = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `sub_${prefix}${i}`, email: `${prefix}${i}@example.com`, createdAt: s.api.clock.now() }));
    const enroll = async (emails: readonly string[]) => {
      const enrolled = await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { emails } });
      t.is(enrolled.status, 200, JSON.stringify(enrolled.body));
      t.is(enrolled.body.enrolled, emails.length);
    };
    // The engine's order: the contact of each step it records.
    const advanced: string[] = [];
    const enrollments = container.get<EnrollmentRepository>(EnrollmentRepository);
    const advance = enrollments.advance.bind(enrollments);
    enrollments.advance = async (enrollment, next, step) => {
      advanced.push(enrollment.subscriberId);
      return advance(enrollment, next, step);
    };

    // 120 contacts wait at the day's delay; a day later all their follow-ups are due at once.
    const backlog = contacts("old", 120);
    await insertContactRows(knex, s.a.companyId, backlog);
    await enroll(backlog.map((c) => c.email));
    await s.runJobs();
    t.is(s.transport.messages.length, 120);
    s.api.clock.advance(DAY + MINUTE);
    // One contact signs up meanwhile: its first step is among the first the engine starts, not after the 120 follow-ups.
    await insertContactRows(knex, s.a.companyId, contacts("new", 1));
    await enroll(["new0@example.com"]);
    advanced.length = 0;
    await s.runJobs();
    t.true([...new Set(advanced)].slice(0, ENROLLMENTS_IN_FLIGHT).includes("sub_new0"), advanced.slice(0, 20).join(" "));
    t.is(s.transport.messages.length, 241);

    // 120 new runs and 120 due follow-ups: every batch of the engine takes some of each.
    s.api.clock.advance(DAY + MINUTE);
    await insertContactRows(knex, s.a.companyId, contacts("burst", 120));
    const again = contacts("again", 120);
    await insertContactRows(knex, s.a.companyId, again);
    await enroll(again.map((c) => c.email));
    await s.runJobs();
    s.api.clock.advance(DAY + MINUTE);
    await enroll(contacts("burst", 120).map((c) => c.email));
    advanced.length = 0;
    await s.runJobs();
    const firstBatch = [...new Set(advanced)].slice(0, 50);
    t.true(
      firstBatch.some((subscriberId) => subscriberId.startsWith("sub_burst")),
      "new runs in the first batch",
    );
    t.true(
      firstBatch.some((subscriberId) => subscriberId.startsWith("sub_again")),
      "follow-ups in the first batch",
    );
    t.is(s.transport.messages.length, 241 + 1 + 120 + 120 + 120);
  });

  test(name("the company's sender renamed while runs wait: the emails after it go out under the new name"), async (t) => {
    const s = await sequenceSession(t, dialect);
    await createAndEnable(s, ONBOARDING);
    for (const email of ["ann@example.com", "bob@example.com"]) {
      t.is((await s.call("POST", "/api/v1/subscribers/events", { body: { email, event: "signed_up" } })).status, 200);
    }
    await s.runJobs();
    const sentBy = () =>
      s.transport.messages.map(({ message }) => `${message.to} ${message.subject.split(" ")[0]} ${message.from.email} ${message.from.name ?? ""}`).sort();
    const before = s.transport.messages[0]!.message.from;
    t.is(before.email, "hello@acme.example");
    t.not(before.name, "Acme Team");

    const renamed = await s.call("PATCH", `/api/v1/companies/${s.a.companyId}`, { body: { fromEmail: "hello@acme.example", fromName: "Acme Team" } });
    t.is(renamed.status, 200, JSON.stringify(renamed.body));
    s.api.clock.advance(DAY + MINUTE);
    await s.runJobs();
    t.deepEqual(sentBy(), [
      `ann@example.com Tips hello@acme.example Acme Team`,
      `ann@example.com Welcome hello@acme.example ${before.name ?? ""}`,
      `bob@example.com Tips hello@acme.example Acme Team`,
      `bob@example.com Welcome hello@acme.example ${before.name ?? ""}`,
    ]);
  });

  test(name("a contact's runs in two sequences that each set an attribute, moved in one batch: the contact keeps both"), async (t) => {
    const s = await sequenceSession(t, dialect);
    for (const [sequence, attribute, value] of [
      ["Plan", "plan", "pro"],
      ["Source", "source", "ads"],
    ] as const) {
      await createAndEnable(s, {
        name: sequence,
        trigger: "event_received",
        eventName: "joined",
        steps: [{ nodeType: "action_update_attributes", config: { customAttributeUpdates: [{ name: attribute, value }] } }],
      });
    }
    const emails = ["ann@example.com", "bob@example.com", "cy@example.com"];
    for (const email of emails) t.is((await s.call("POST", "/api/v1/subscribers/events", { body: { email, event: "joined" } })).status, 200);
    await s.runJobs();
    for (const email of emails) {
      const contact = (await s.call("GET", `/api/v1/subscribers/${encodeURIComponent(email)}`)).body.subscriber;
      t.like(contact.customAttributes, { plan: "pro", source: "ads" }, email);
    }
  });

  test(name("a step runs once when its job is retried after the email was queued"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, ONBOARDING);
    const restore = await failInsertsInto(s.api.runtime.knex, "sequence_enrollment_steps");
    await s.call("POST", "/api/v1/subscribers/events", { body: { email: "ann@example.com", event: "signed_up", properties: { plan: "pro" } } });
    await s.runJobs();
    t.is(s.transport.messages.length, 1, "the email went out though its step could not be recorded");
    const [enrollment] = await s.api.runtime.knex("sequence_enrollments").where({ sequence_id: id });
    t.is(enrollment.step_count, 0, "the enrollment did not move on");

    await restore();
    s.api.clock.advance(10 * MINUTE); // past the job's retry delay
    await s.runJobs();
    t.is(s.transport.messages.length, 1, "the retried step found its send and sent nothing again");
    t.is((await s.api.runtime.knex("email_sends").where({ company_id: s.a.companyId })).length, 1);
    const steps = await s.api.runtime.knex("sequence_enrollment_steps").where({ enrollment_id: enrollment.id }).orderBy("step_number");
    t.deepEqual(
      steps.map((step) => [step.step_number, step.outcome]),
      [
        [1, "email_queued"],
        [2, "waiting"],
      ],
    );
    t.is(steps[0].email_send_id, (await s.api.runtime.knex("email_sends").first()).id);
  });

  if (dialect.name === "postgres") {
    test(name("steps recorded together and a cancel of the same runs lock in one order: no deadlock"), async (t) => {
      const s = await sequenceSession(t, dialect);
      const { knex, container } = s.api.runtime;
      const id = await createAndEnable(s, ONBOARDING);
      for (const email of ["ann@example.com", "bob@example.com"]) {
        t.is((await s.call("POST", "/api/v1/subscribers/events", { body: { email, event: "signed_up" } })).status, 200);
      }
      await s.runJobs();
      const enrollments = container.get<EnrollmentRepository>(EnrollmentRepository);
      const ids: string[] = (await knex("sequence_enrollments").where({ sequence_id: id }).orderBy("id")).map((row) => row.id);
      const [low, high] = await Promise.all(ids.map(async (enrollmentId) => (await enrollments.find(s.a.companyId, id, enrollmentId))!));
      const at = s.api.clock.now();
      const step = { nodeId: low!.currentNodeId, nodeType: "logic_delay", outcome: "waited", detail: null, emailSendId: null, at };
      // Another transaction holds the step row the higher run's record needs: a group that starts with it waits there.
      const holder = await knex.transaction();
      await holder("sequence_enrollment_steps").insert({
        enrollment_id: high!.id,
        step_number: high!.stepCount + 1,
        company_id: s.a.companyId,
        node_id: step.nodeId,
        node_type: step.nodeType,
        outcome: step.outcome,
        at,
      });
      // Submitted in the same turn, the higher ID first: one group.
      const advanced = Promise.all([enrollments.advance(high!, { ...high!, dueAt: at }, step), enrollments.advance(low!, { ...low!, dueAt: at }, step)]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const cancelled = enrollments.cancelRunning(s.a.companyId, id, null, { reason: "test", keepEntryKey: true, at });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await holder.rollback();
      t.deepEqual(await advanced, [true, true]);
      t.is(await cancelled, 2, "the cancel waited for the steps, then cancelled both runs");
      const rows = await knex("sequence_enrollments").where({ sequence_id: id });
      t.deepEqual(
        rows.map((row) => row.status),
        ["cancelled", "cancelled"],
      );
    });
  }
}
