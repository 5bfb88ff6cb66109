import test from "ava";
import { DirectImport } from "../../../core/subscriber-imports/direct-import.js";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, DAY, MINUTE, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

const HOUR = 60 * MINUTE;
const event = (s: SequenceSession, body: Record<string, unknown>) => s.call("POST", "/api/v1/subscribers/events", { body });

/** Started by `trial_started`: a welcome email, and another a day later. */
const TRIAL = {
  name: "Trial",
  trigger: "event_received",
  eventName: "trial_started",
  steps: [
    { subject: "Welcome", html: "<p>1</p>" },
    { subject: "Day two", html: "<p>2</p>", delayDays: 1 },
  ],
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence goals ${title}`;

  test(name("an event goal converts contacts in the sequence, or who left it within the attribution window, once per run"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, TRIAL);
    const created = await s.call("POST", `/api/v1/sequences/${id}/goals`, {
      body: { name: "Upgrade", triggerEventName: "upgraded", eventPropertyName: "amount", eventPropertyLabel: "Revenue", attributionWindowHours: 24 },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const goal = created.body.goal;
    t.like(goal, {
      sequenceId: id,
      name: "Upgrade",
      triggerType: "event",
      triggerEventName: "upgraded",
      attributionWindowHours: 24,
      isActive: true,
      conversionCount: 0,
      description: null,
    });
    t.regex(goal.id, /^goal_/);

    for (const email of ["ann@example.com", "bob@example.com", "cy@example.com"]) t.is((await event(s, { email, event: "trial_started" })).status, 200);
    await s.runJobs();
    s.api.clock.advance(MINUTE);
    t.is((await event(s, { email: "ann@example.com", event: "upgraded", properties: { amount: 49 } })).status, 200);
    t.is((await event(s, { email: "ann@example.com", event: "upgraded", properties: { amount: 99 } })).status, 200);
    t.is((await event(s, { email: "dee@example.com", event: "upgraded", properties: { amount: 10 } })).status, 200);

    s.api.clock.advance(DAY);
    await s.runJobs();
    const finished = await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=completed`);
    t.is(finished.body.pagination.total, 3, "every run has ended");
    s.api.clock.advance(23 * HOUR);
    t.is((await event(s, { email: "cy@example.com", event: "upgraded" })).status, 200);
    s.api.clock.advance(2 * HOUR);
    t.is((await event(s, { email: "bob@example.com", event: "upgraded" })).status, 200);

    const listed = await s.call("GET", `/api/v1/sequences/${id}/goals`);
    t.is(listed.status, 200);
    t.is(listed.body.goals.length, 1);
    t.is(
      listed.body.goals[0].conversionCount,
      2,
      "Ann once (her second event is the same run), Cy within the window; not Bob (too late) nor Dee (never enrolled)",
    );
    const conversions = await s.api.runtime.knex("sequence_goal_conversions").where({ goal_id: goal.id }).orderBy("converted_at");
    t.deepEqual(
      conversions.map((row) => row.value),
      ["49", null],
    );
    // The metrics credit the sequence with both, and each step with the conversions it was the last email before:
    // Ann's after "Welcome" (49 in minor units of her amount), Cy's after "Day two" (no amount).
    const metrics = await s.call("GET", `/api/v1/metrics/sequences/${id}`);
    t.is(metrics.status, 200, JSON.stringify(metrics.body));
    t.like(metrics.body.stats, { sent: 6, conversions: 2, revenueCents: 49 });
    t.deepEqual(
      metrics.body.steps.map((step: { subject: string; stats: { conversions: number; revenueCents: number } }) => [
        step.subject,
        step.stats.conversions,
        step.stats.revenueCents,
      ]),
      [
        ["Welcome", 1, 49],
        ["Day two", 1, 0],
      ],
    );
    // GET /metrics/emails gives each step's row the same credit, sorts by it, and totals it.
    const rows = await s.call("GET", `/api/v1/metrics/emails?sequenceId=${id}&sort=revenue`);
    t.is(rows.status, 200, JSON.stringify(rows.body));
    t.deepEqual(
      rows.body.emails.map((row: { name: string; conversions: number; revenueCents: number }) => [row.name, row.conversions, row.revenueCents]),
      [
        ["Welcome", 1, 49],
        ["Day two", 1, 0],
      ],
    );
    t.like(rows.body.totals, { emails: 2, conversions: 2, revenueCents: 49 });
    const ascending = await s.call("GET", `/api/v1/metrics/emails?sequenceId=${id}&sort=revenue&order=asc`);
    t.deepEqual(
      ascending.body.emails.map((row: { name: string }) => row.name),
      ["Day two", "Welcome"],
    );

    const renamed = await s.call("PATCH", `/api/v1/sequences/${id}/goals/${goal.id}`, { body: { name: "Paid", description: "Any paid plan" } });
    t.is(renamed.status, 200);
    t.like(renamed.body.goal, { name: "Paid", description: "Any paid plan", triggerEventName: "upgraded", conversionCount: 2 });
    const removed = await s.call("DELETE", `/api/v1/sequences/${id}/goals/${goal.id}`);
    t.deepEqual(removed.body, { success: true, goalId: goal.id });
    t.deepEqual((await s.call("GET", `/api/v1/sequences/${id}/goals`)).body.goals, []);
  });

  test(name("attribute_change goals convert contacts in the sequence whose field changes as the goal says, from any path that saves it"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, TRIAL);
    const goal = async (body: Record<string, unknown>) => {
      const created = await s.call("POST", `/api/v1/sequences/${id}/goals`, { body: { triggerType: "attribute_change", attributePath: "plan", ...body } });
      t.is(created.status, 200, JSON.stringify(created.body));
      return created.body.goal.id as string;
    };
    const toPro = await goal({ name: "Pro", attributeCondition: "changed_to", attributeValue: "pro" });
    const trialToBasic = await goal({ name: "Basic", attributeCondition: "changed_from_to", attributePreviousValue: "trial", attributeValue: "basic" });
    const anyChange = await goal({ name: "Any plan change", attributePath: "customAttributes.plan", attributeCondition: "changed" });

    // Bob starts on a trial plan; Dee is never in the sequence.
    t.is(
      (
        await s.call("POST", "/api/v1/subscribers", {
          body: { email: "bob@example.com", customAttributes: { plan: "trial" }, createdAt: "2026-01-01T00:00:00.000Z" },
        })
      ).status,
      200,
    );
    for (const email of ["ann@example.com", "bob@example.com", "cy@example.com", "eve@example.com"])
      t.is((await event(s, { email, event: "trial_started" })).status, 200);
    await s.runJobs();
    s.api.clock.advance(MINUTE);

    const patch = (email: string, plan: string) =>
      s.call("PATCH", `/api/v1/subscribers/${encodeURIComponent(email)}`, { body: { customAttributes: { plan } } });
    t.is((await patch("ann@example.com", "pro")).status, 200);
    t.is((await patch("ann@example.com", "enterprise")).status, 200);
    t.is((await patch("ann@example.com", "pro")).status, 200, "a second time in the same run converts nothing more");
    t.is((await patch("bob@example.com", "basic")).status, 200);
    // Through an event's attributes (the contact save every write path shares), any case.
    t.is((await event(s, { email: "cy@example.com", event: "visited", customAttributes: { plan: "PRO" } })).status, 200);
    t.is((await patch("dee@example.com", "pro")).status, 404);
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "dee@example.com", customAttributes: { plan: "pro" } } })).status, 200);
    t.is((await patch("dee@example.com", "basic")).status, 200);
    // Saving Eve without touching her plan reaches no goal.
    t.is((await s.call("PATCH", "/api/v1/subscribers/eve%40example.com", { body: { firstName: "Eve" } })).status, 200);

    const counts = Object.fromEntries(
      ((await s.call("GET", `/api/v1/sequences/${id}/goals`)).body.goals as Array<{ id: string; conversionCount: number }>).map((g) => [
        g.id,
        g.conversionCount,
      ]),
    );
    t.deepEqual(counts, { [toPro]: 2, [trialToBasic]: 1, [anyChange]: 3 }, "Ann and Cy to pro, Bob from trial to basic; any change: Ann, Bob, Cy once each");
    const values = await s.api.runtime.knex("sequence_goal_conversions").where({ goal_id: toPro }).orderBy("converted_at").pluck("value");
    t.deepEqual(values.sort(), ["PRO", "pro"]);
  });

  test(name("attribute_change goals convert contacts whose field an import or a direct import (CLI, warehouse sync) changes"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, TRIAL);
    const created = await s.call("POST", `/api/v1/sequences/${id}/goals`, {
      body: { name: "Pro", triggerType: "attribute_change", attributePath: "plan", attributeCondition: "changed_to", attributeValue: "pro" },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    for (const email of ["ann@example.com", "bob@example.com", "cy@example.com", "eve@example.com"])
      t.is((await event(s, { email, event: "trial_started" })).status, 200);
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "dee@example.com", customAttributes: { plan: "trial" } } })).status, 200);
    await s.runJobs();
    s.api.clock.advance(MINUTE);

    // An API import: Ann changes to pro, Bob to basic, Dee (never in the sequence) to pro, a new contact starts on pro.
    const imported = await s.call("POST", "/api/v1/subscribers/imports", {
      body: {
        duplicateStrategy: "merge",
        subscribers: [
          { email: "ann@example.com", customAttributes: { plan: "pro" } },
          { email: "bob@example.com", customAttributes: { plan: "basic" } },
          { email: "dee@example.com", customAttributes: { plan: "pro" } },
          { email: "new@example.com", customAttributes: { plan: "pro" } },
        ],
      },
    });
    t.is(imported.status, 202, JSON.stringify(imported.body));
    await s.runJobs();
    await s.runJobs();
    const converted = () => s.api.runtime.knex("sequence_goal_conversions").where({ goal_id: created.body.goal.id }).orderBy("value");
    const emailsOf = async (rows: Array<{ subscriber_id: string }>) => {
      const emails = await s.api.runtime
        .knex("subscribers")
        .whereIn(
          "id",
          rows.map((row) => row.subscriber_id),
        )
        .pluck("email");
      return emails.sort();
    };
    t.deepEqual(await emailsOf(await converted()), ["ann@example.com"]);

    // A direct import (what the CLI and warehouse syncs run): Cy to Pro; Ann, already pro, and Eve change no plan.
    const direct = s.api.runtime.container.get(DirectImport);
    const started = await direct.start(s.a.companyId, { fileName: "plans.csv", duplicateStrategy: "merge", lists: [] });
    if (started._tag === "Left") throw new Error(started.left.message);
    const rows = [
      { email: "cy@example.com", customAttributes: { plan: "Pro" } },
      { email: "ann@example.com", customAttributes: { plan: "pro" } },
      { email: "eve@example.com", firstName: "Eve" },
    ];
    await direct.finish(await direct.addChunk(started.right, rows, new Set()));
    await s.runJobs();
    t.deepEqual(await emailsOf(await converted()), ["ann@example.com", "cy@example.com"]);
    t.deepEqual(
      (await converted()).map((row) => row.value),
      ["Pro", "pro"],
    );
    const goals = (await s.call("GET", `/api/v1/sequences/${id}/goals`)).body.goals;
    t.like(goals, [{ name: "Pro", conversionCount: 2 }]);
  });

  test(name("attribute_change goals convert contacts whose name a signup form changes"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, TRIAL);
    const created = await s.call("POST", `/api/v1/sequences/${id}/goals`, {
      body: { name: "Named", triggerType: "attribute_change", attributePath: "firstName", attributeCondition: "changed_to", attributeValue: "Ann" },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    for (const email of ["ann@example.com", "bob@example.com"]) t.is((await event(s, { email, event: "trial_started" })).status, 200);
    await s.runJobs();
    s.api.clock.advance(MINUTE);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    const form = await s.call("POST", "/api/v1/forms", { body: { name: "Footer", listIds: [list.id], duplicateStrategy: "merge" } });
    t.is(form.status, 200, JSON.stringify(form.body));
    // A visitor's post, no key: Ann gives her name, Bob gives another, Cy (not in the sequence) gives Ann.
    for (const [email, firstName] of [
      ["ann@example.com", "Ann"],
      ["bob@example.com", "Robert"],
      ["cy@example.com", "Ann"],
    ]) {
      const posted = await fetch(`${s.api.server.url}/api/v1/forms/${form.body.form.id}`, {
        method: "POST",
        body: JSON.stringify({ email, firstName }),
        headers: { "content-type": "application/json" },
      });
      t.is(posted.status, 200, email);
    }
    await s.runJobs();
    const goals = (await s.call("GET", `/api/v1/sequences/${id}/goals`)).body.goals;
    t.like(goals, [{ name: "Named", conversionCount: 1 }]);
    const [conversion] = await s.api.runtime.knex("sequence_goal_conversions").where({ goal_id: created.body.goal.id });
    t.is((await s.call("GET", "/api/v1/subscribers/ann%40example.com")).body.subscriber.id, conversion.subscriber_id);
  });

  test(name("bad goals are refused and store nothing; another company's goals are not found"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = (await s.call("POST", "/api/v1/sequences", { body: { name: "Draft" } })).body.sequence.id;
    const goals = `/api/v1/sequences/${id}/goals`;
    const noEvent = await s.call("POST", goals, { body: { name: "Nothing" } });
    t.deepEqual([noEvent.status, noEvent.body.error], [400, "An event goal needs triggerEventName (the event that reaches it)"]);
    for (const [body, error] of [
      [{ attributeCondition: "changed" }, "An attribute_change goal needs attributePath (the field or custom attribute it watches)"],
      [{ attributePath: "plan" }, "An attribute_change goal needs attributeCondition (changed, changed_to or changed_from_to)"],
      [{ attributePath: "plan", attributeCondition: "changed_to" }, "attributeCondition changed_to needs attributeValue"],
      [
        { attributePath: "plan", attributeCondition: "changed_from_to", attributeValue: "pro" },
        "attributeCondition changed_from_to needs attributePreviousValue",
      ],
    ] as const) {
      const attribute = await s.call("POST", goals, { body: { name: "Plan", triggerType: "attribute_change", ...body } });
      t.deepEqual([attribute.status, attribute.body.error], [400, error]);
    }
    t.is((await s.call("POST", goals, { body: { name: "Wide", triggerEventName: "paid", attributionWindowHours: 721 } })).status, 422);
    t.is((await s.call("POST", goals, { body: { triggerEventName: "paid" } })).status, 422);
    t.is((await s.call("POST", "/api/v1/sequences/seq_missing/goals", { body: { name: "X", triggerEventName: "paid" } })).status, 404);
    t.deepEqual((await s.call("GET", goals)).body.goals, [], "nothing was stored");

    const goal = (await s.call("POST", goals, { body: { name: "Paid", triggerEventName: "paid" } })).body.goal;
    t.is(goal.attributionWindowHours, 72);
    t.is((await s.call("GET", goals, {}, s.b)).status, 404);
    t.is((await s.call("PATCH", `${goals}/${goal.id}`, { body: { name: "Mine" } }, s.b)).status, 404);
    t.is((await s.call("DELETE", `${goals}/${goal.id}`, {}, s.b)).status, 404);
    const refused = await s.call("PATCH", `${goals}/${goal.id}`, { body: { triggerEventName: null } });
    t.is(refused.status, 400);
    t.like((await s.call("GET", goals)).body.goals[0], { name: "Paid", triggerEventName: "paid" }, "unchanged");
  });
}
