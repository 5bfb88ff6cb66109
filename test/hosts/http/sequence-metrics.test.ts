import test from "ava";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { insertContactRows } from "../../helpers/contact-rows.js";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, DAY, MINUTE, sequenceSession } from "../../helpers/sequence-session.js";

const CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence metrics ${title}`;

  test(name("per-step funnel, running enrollments by node, failed contacts and skipped steps; the window narrows the sends"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const tag = await s.call("POST", "/api/v1/tags", { body: { name: "Onboarded" } });
    t.is(tag.status, 200, JSON.stringify(tag.body));
    // Made before the sequence is live, so its contact_added trigger does not take them.
    for (const email of ["ann@example.com", "bob@example.com"]) await s.call("POST", "/api/v1/subscribers", { body: { email } });
    const id = await createAndEnable(s, {
      name: "Onboarding",
      steps: [
        { subject: "Welcome", html: "<p>Hi</p>" },
        { nodeType: "action_add_tag", config: { tagId: tag.body.tag.id } },
        { subject: "Tips", html: "<p>Tips</p>", delayDays: 1 },
      ],
    });
    const nodes: Array<{ id: string; nodeType: string; config: Record<string, unknown> }> = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence
      .nodes;
    const welcome = nodes.find((node) => node.config.subject === "Welcome")!.id;
    const tips = nodes.find((node) => node.config.subject === "Tips")!.id;
    const delay = nodes.find((node) => node.nodeType === "logic_delay")!.id;
    t.is((await s.call("DELETE", `/api/v1/tags/${tag.body.tag.id}`)).status, 200, "the tag step will be skipped");

    t.like((await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { emails: ["ann@example.com", "bob@example.com"] } })).body, { enrolled: 2 });
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Welcome"], "bob@example.com": ["Welcome"] });

    // Ann opens her Welcome email in a browser.
    s.api.clock.advance(MINUTE);
    const html = s.transport.messages.find(({ message }) => message.to === "ann@example.com")!.message.html!;
    const pixel = /\/t\/o\/[\w.-]+\.gif/.exec(html);
    t.truthy(pixel, "the email carries an open pixel");
    t.is((await fetch(`${s.api.server.url}${pixel![0]}`, { headers: { "user-agent": CHROME } })).status, 200);

    // Cat's run failed at the Tips step.
    await insertContactRows(s.api.runtime.knex, s.a.companyId, [{ id: "sub_cat", email: "cat@example.com", createdAt: new Date("2026-11-01T00:00:00.000Z") }]);
    const at = toDbDate(s.api.clock.now());
    await s.api.runtime.knex("sequence_enrollments").insert({
      id: "enr_cat",
      company_id: s.a.companyId,
      sequence_id: id,
      subscriber_id: "sub_cat",
      status: "failed",
      current_node_id: tips,
      step_count: 3,
      context: "{}",
      failed_reason: "the email could not be rendered",
      source: "api",
      started_at: at,
      updated_at: at,
      finished_at: at,
    });

    const metrics = await s.call("GET", `/api/v1/metrics/sequences/${id}`);
    t.is(metrics.status, 200, JSON.stringify(metrics.body));
    t.like(metrics.body, {
      success: true,
      sequence: { id, name: "Onboarding", status: "active" },
      period: { name: "all", start: null, end: null },
      stats: { sent: 2, opened: 1, clicked: 0, openRate: 50, conversions: 0, revenueCents: 0 },
      enrollmentCounts: { active: 0, waiting: 2, total: 2 },
      enrollmentSkipped: { count: 2, byReason: { "the tag no longer exists": 2 } },
    });
    t.deepEqual(metrics.body.enrollmentCounts.byCurrentNode, [
      { currentNodeId: delay, currentNodeType: "logic_delay", currentNodeLabel: null, currentNodeMissing: false, active: 0, waiting: 2, total: 2 },
    ]);
    const [first, second] = metrics.body.steps;
    t.like(first, { step: 1, nodeId: welcome, subject: "Welcome", stats: { sent: 2, opened: 1 }, failedCount: 0, failedSubscribers: [] });
    t.like(second, { step: 2, nodeId: tips, subject: "Tips", stats: { sent: 0, opened: 0 }, failedCount: 1 });
    t.deepEqual(second.failedSubscribers, [
      { subscriberId: "sub_cat", email: "cat@example.com", failedAt: "2026-11-22T10:01:00.000Z", failedReason: "the email could not be rendered" },
    ]);

    const opens = await s.call("GET", `/api/v1/metrics/sequences/${id}/events?eventTypes=open`);
    t.is(opens.status, 200, JSON.stringify(opens.body));
    t.is(opens.body.events.length, 1);
    t.like(opens.body.events[0], { eventType: "open", recipientEmail: "ann@example.com", automationNodeId: welcome, machine: false });
    t.deepEqual(opens.body.pagination, { page: 1, limit: 100, total: 1, totalPages: 1 });
    t.is((await s.call("GET", `/api/v1/metrics/sequences/${id}/events?eventTypes=open&automationNodeId=${tips}`)).body.events.length, 0);
    t.is((await s.call("GET", `/api/v1/metrics/sequences/${id}/events?eventTypes=nope`)).status, 422);
    t.like(await s.call("GET", `/api/v1/metrics/sequences/${id}/events`, {}, s.b), { status: 404, body: { error: "Sequence not found" } });

    // A day later the Tips emails go out; the last hour holds only them.
    s.api.clock.advance(DAY);
    await s.runJobs();
    const later = await s.call("GET", `/api/v1/metrics/sequences/${id}`);
    t.like(later.body, { stats: { sent: 4 }, enrollmentCounts: { active: 0, waiting: 0, total: 0, byCurrentNode: [] } });
    t.like(later.body.steps[1], { stats: { sent: 2 } });
    const lastHour = await s.call("GET", `/api/v1/metrics/sequences/${id}?period=1h`);
    t.like(lastHour.body, { period: { name: "1h" }, stats: { sent: 2 } });
    t.like(lastHour.body.steps[0], { stats: { sent: 0 } });
    t.like((await s.call("GET", "/api/v1/metrics?emailType=sequence&period=7d")).body.stats, { sent: 4 });
  });

  test(name("bad input and other companies' sequences"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, { name: "Mine", steps: [{ subject: "Hi", html: "<p>Hi</p>" }] });
    const empty = await s.call("GET", `/api/v1/metrics/sequences/${id}`);
    t.like(empty.body, { stats: { sent: 0, openRate: 0 }, enrollmentCounts: { total: 0 }, enrollmentSkipped: { count: 0, byReason: {} } });
    t.like(empty.body.steps, [{ step: 1, subject: "Hi", stats: { sent: 0 } }]);
    t.like(await s.call("GET", `/api/v1/metrics/sequences/${id}`, {}, s.b), { status: 404, body: { success: false, error: "Sequence not found" } });
    t.like(await s.call("GET", "/api/v1/metrics/sequences/seq_nope"), { status: 404, body: { error: "Sequence not found" } });
    t.is((await s.call("GET", `/api/v1/metrics/sequences/${id}?start=2026-11-01T00:00:00.000Z`)).status, 400);
    t.is((await s.call("GET", `/api/v1/metrics/sequences/${id}?start=2026-01-01T00:00:00.000Z&end=2026-11-01T00:00:00.000Z`)).status, 400);
    t.is((await s.call("GET", `/api/v1/metrics/sequences/${id}?period=2y`)).status, 422);
  });
}
