import test from "ava";
import { dialects } from "../../helpers/databases.js";
import { failUpdatesOf } from "../../helpers/injected-failure.js";
import { DAY, MINUTE, sequenceSession } from "../../helpers/sequence-session.js";

const BODY = {
  name: "Onboarding",
  steps: [
    { subject: "Welcome {{firstName}}", html: "<p>Plan {{event.plan}}</p>" },
    { nodeType: "action_add_tag", config: { tagName: "vip" } },
    { subject: "Tips", html: "<p>Tips</p>", delayDays: 1 },
  ],
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence test runs ${title}`;

  test(name("a contact through the sequence at compressed speed: test emails, actions logged not applied, the steps log"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id: string = (await s.call("POST", "/api/v1/sequences", { body: BODY })).body.sequence.id;
    const ann = (await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann" } })).body.subscriber;

    const started = await s.call("POST", `/api/v1/sequences/${id}/test-runs`, {
      body: { subscriberId: ann.id, speedMultiplier: 60, customVariables: { event: { plan: "pro" } } },
    });
    t.is(started.status, 200, JSON.stringify(started.body));
    const run = started.body.run;
    t.like(run, {
      automationId: id,
      companyId: s.a.companyId,
      subscriberId: ann.id,
      status: "queued",
      recipientEmails: ["ann@example.com"],
      speedMultiplier: 60,
      steps: [],
      errorMessage: null,
      startedAt: null,
      finishedAt: null,
    });
    t.regex(run.id, /^str_/);
    t.is(typeof run.jobId, "string");
    t.true(run.jobId.length > 0);
    t.is(typeof run.initiatedByUserId, "string");

    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Welcome Ann"] });
    t.regex(s.transport.messages[0]!.message.html!, /Plan pro/);
    const get = async () => (await s.call("GET", `/api/v1/sequences/${id}/test-runs/${run.id}`)).body.run;
    const waiting = await get();
    t.like(waiting, { status: "running", startedAt: "2026-11-22T10:00:00.000Z", finishedAt: null });
    t.false("jobId" in waiting, "jobId is given on creation only");
    t.deepEqual(
      waiting.steps.map((step: { nodeType: string; status: string }) => [step.nodeType, step.status]),
      [
        ["action_email", "sent"],
        ["action_add_tag", "skipped"],
        ["logic_delay", "waiting"],
      ],
    );
    t.like(waiting.steps[0], { action: { subject: "Welcome {{firstName}}", recipientEmails: ["ann@example.com"] } });
    t.is(waiting.steps[1].message, "Not applied in a test run: would add tag vip");
    t.deepEqual(waiting.steps[2].timing, {
      at: "2026-11-22T10:00:00.000Z",
      delayMs: DAY,
      compressedDelayMs: DAY / 60,
      resumesAt: "2026-11-22T10:24:00.000Z",
    });
    t.is((await s.api.runtime.knex("subscriber_tags").where({ subscriber_id: ann.id })).length, 0, "the contact is not tagged");

    s.api.clock.advance(24 * MINUTE - 1000);
    await s.runJobs();
    t.is(s.transport.messages.length, 1, "the compressed day is not over yet");
    s.api.clock.advance(1000);
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Welcome Ann", "Tips"] });
    const done = await get();
    t.like(done, { status: "completed", finishedAt: "2026-11-22T10:24:00.000Z", errorMessage: null });
    t.deepEqual(
      done.steps.map((step: { status: string }) => step.status),
      ["sent", "skipped", "waiting", "waited", "sent"],
    );

    const sends = await s.api.runtime.knex("email_sends").where({ company_id: s.a.companyId });
    t.is(sends.length, 2);
    t.true(sends.every((send) => Boolean(send.is_test) && send.email_type === "sequence" && send.automation_id === id));
    t.like((await s.call("GET", `/api/v1/metrics/sequences/${id}`)).body.stats, { sent: 0 });
    t.like((await s.call("GET", "/api/v1/metrics?emailType=sequence")).body.stats, { sent: 0 });
    const enrollments = await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=active,waiting,completed,failed,cancelled`);
    t.is(enrollments.body.pagination.total, 0, "a test run enrolls no one");
  });

  test(name("test emails go to team addresses instead; bad input and other companies are refused"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id: string = (await s.call("POST", "/api/v1/sequences", { body: BODY })).body.sequence.id;
    const ann = (await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann" } })).body.subscriber;
    const bob = (await s.call("POST", "/api/v1/subscribers", { body: { email: "bob@example.com" } }, s.b)).body.subscriber;
    const start = (body: unknown, company = s.a) => s.call("POST", `/api/v1/sequences/${id}/test-runs`, { body }, company);

    const team = await start({ subscriberId: ann.id, recipientEmails: ["qa@acme.example", "lead@acme.example"] });
    t.is(team.status, 200, JSON.stringify(team.body));
    t.like(team.body.run, { recipientEmails: ["qa@acme.example", "lead@acme.example"], speedMultiplier: 3600 });
    await s.runJobs();
    t.deepEqual(s.received(), { "qa@acme.example": ["Welcome Ann"], "lead@acme.example": ["Welcome Ann"] });

    t.is((await start({ subscriberId: ann.id, speedMultiplier: 59 })).status, 422);
    t.is((await start({ subscriberId: ann.id, speedMultiplier: 10_001 })).status, 422);
    t.is((await start({ subscriberId: ann.id, recipientEmails: [] })).status, 422);
    t.is((await start({})).status, 422);
    t.like(await start({ subscriberId: "sub_nope" }), { status: 404, body: { error: "Subscriber not found" } });
    t.like(await start({ subscriberId: bob.id }), { status: 404, body: { error: "Subscriber not found" } });
    t.like(await start({ subscriberId: bob.id }, s.b), { status: 404, body: { error: "Sequence not found" } });
    t.like(await s.call("GET", `/api/v1/sequences/${id}/test-runs/${team.body.run.id}`, {}, s.b), { status: 404, body: { error: "Test run not found" } });
    t.is((await s.api.runtime.knex("sequence_test_runs")).length, 1, "refused runs store nothing");
  });

  test(name("simulate: what a contact would receive and when, sending nothing"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id: string = (await s.call("POST", "/api/v1/sequences", { body: BODY })).body.sequence.id;
    await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann" } });
    const simulate = (query: string, company = s.a) => s.call("GET", `/api/v1/sequences/${id}/simulate?${query}`, {}, company);

    const full = await simulate("email=ann@example.com");
    t.is(full.status, 200, JSON.stringify(full.body));
    t.like(full.body, {
      sequenceId: id,
      email: "ann@example.com",
      startsAt: "2026-11-22T10:00:00.000Z",
      completesAt: "2026-11-23T10:00:00.000Z",
      truncated: false,
    });
    t.deepEqual(
      full.body.emails.map((email: { subject: string; sendAt: string }) => [email.subject, email.sendAt]),
      [
        ["Welcome Ann", "2026-11-22T10:00:00.000Z"],
        ["Tips", "2026-11-23T10:00:00.000Z"],
      ],
    );
    t.deepEqual(
      full.body.path.map((step: { outcome: string }) => step.outcome),
      ["email", "action", "delay", "email", "completed"],
    );
    t.is(full.body.path[1].message, "would add tag vip");

    const first = await simulate(`subscriberId=${full.body.subscriberId}&limit=1`);
    t.like(first.body, { truncated: true, completesAt: null });
    t.is(first.body.emails.length, 1);

    await s.runJobs();
    t.is(s.transport.messages.length, 0);
    t.is((await s.api.runtime.knex("email_sends")).length, 0, "a simulation sends nothing");
    t.is((await simulate("")).status, 400);
    t.is((await simulate(`email=ann@example.com&subscriberId=${full.body.subscriberId}`)).status, 400);
    t.is((await simulate("email=ann@example.com&limit=26")).status, 422);
    t.like(await simulate("email=nobody@example.com"), { status: 404, body: { error: "Subscriber not found" } });
    t.like(await simulate("email=ann@example.com", s.b), { status: 404, body: { error: "Sequence not found" } });
  });

  test(name("a test email is sent once when its step could not be saved and the job runs again"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id: string = (await s.call("POST", "/api/v1/sequences", { body: BODY })).body.sequence.id;
    const ann = (await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann" } })).body.subscriber;
    const run = (await s.call("POST", `/api/v1/sequences/${id}/test-runs`, { body: { subscriberId: ann.id } })).body.run;

    const restore = await failUpdatesOf(s.api.runtime.knex, "sequence_test_runs");
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Welcome Ann"] }, "the email went out though its step could not be saved");
    await restore();
    t.like((await s.call("GET", `/api/v1/sequences/${id}/test-runs/${run.id}`)).body.run, { status: "queued", steps: [] });

    s.api.clock.advance(10 * MINUTE); // past the job's retry delay
    await s.runJobs();
    t.deepEqual(s.received()["ann@example.com"], ["Welcome Ann"], "the step run again found its send");
    const after = (await s.call("GET", `/api/v1/sequences/${id}/test-runs/${run.id}`)).body.run;
    t.deepEqual(
      after.steps.map((step: { status: string }) => step.status),
      ["sent", "skipped", "waiting"],
    );
    t.is((await s.api.runtime.knex("email_sends").where({ company_id: s.a.companyId })).length, 1);
  });
}
