import test from "ava";
import { dialects } from "../../helpers/databases.js";
import { sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

async function welcomeSequence(s: SequenceSession): Promise<{ id: string; email: string; delay: string }> {
  const created = await s.call("POST", "/api/v1/sequences", {
    body: {
      name: "Welcome",
      steps: [
        { subject: "Hello {{firstName}}", html: "<p>Your plan: {{event.plan}}</p>" },
        { subject: "Later", html: "<p>Later</p>", delayDays: 1 },
      ],
    },
  });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const nodes: Array<{ id: string; nodeType: string; config: Record<string, unknown> }> = created.body.sequence.nodes;
  return {
    id: created.body.sequence.id,
    email: nodes.find((node) => node.config.subject === "Hello {{firstName}}")!.id,
    delay: nodes.find((node) => node.nodeType === "logic_delay")!.id,
  };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence step emails ${title}`;

  test(name("render an email step for a contact, an inline subscriber or no one"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const { id, email, delay } = await welcomeSequence(s);
    const ann = await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann" } });
    const render = (body: unknown, node = email) => s.call("POST", `/api/v1/sequences/${id}/nodes/${node}/render`, { body });

    const forAnn = await render({ subscriberId: ann.body.subscriber.id, variables: { event: { plan: "pro" } } });
    t.is(forAnn.status, 200, JSON.stringify(forAnn.body));
    t.like(forAnn.body, {
      success: true,
      subject: "Hello Ann",
      personalized: true,
      trackingApplied: false,
      locale: "default",
      unresolvedMergeTags: [],
      entity: { type: "sequence_node", id: email, variantId: null },
    });
    t.regex(forAnn.body.html, /Your plan: pro/);
    t.false(forAnn.body.html.includes("/t/o/"), "no open pixel in a preview");

    const inline = await render({ subscriber: { email: "bo@example.com", firstName: "Bo" } });
    t.like(inline.body, { subject: "Hello Bo", personalized: true });
    const anonymous = await render({});
    t.like(anonymous.body, { personalized: false });
    t.deepEqual(anonymous.body.unresolvedMergeTags.map((tag: { tag: string }) => tag.tag).sort(), ["event.plan", "firstName"]);

    t.like(await render({}, delay), { status: 400, body: { success: false, error: `Only action_email steps have an email: node ${delay} is a logic_delay` } });
    t.like(await render({}, "node_nope"), { status: 404, body: { error: "Sequence node not found" } });
    t.like(await render({ subscriberId: "sub_nope" }), { status: 404, body: { error: "Subscriber not found" } });
    t.like(await s.call("POST", `/api/v1/sequences/${id}/nodes/${email}/render`, { body: {} }, s.b), { status: 404, body: { error: "Sequence not found" } });
  });

  test(name("test emails reach the recipients from the step's sender, marked as tests and out of metrics"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const { id, email, delay } = await welcomeSequence(s);
    await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann" } });
    const send = (body: unknown, node = email, company = s.a) => s.call("POST", `/api/v1/sequences/${id}/nodes/${node}/test`, { body }, company);

    const sent = await send({ recipients: ["ann@example.com", "team@acme.example"] });
    t.is(sent.status, 200, JSON.stringify(sent.body));
    t.like(sent.body, { success: true, sequenceId: id, nodeId: email });
    t.deepEqual(
      sent.body.results.map((result: { recipientEmail: string; jobId: string }) => [result.recipientEmail, result.jobId]),
      [
        ["ann@example.com", ""],
        ["team@acme.example", ""],
      ],
    );
    await s.runJobs();
    const received = s.received();
    t.deepEqual(received["ann@example.com"], ["Hello Ann"]);
    t.is(received["team@acme.example"]?.length, 1);
    t.is(s.transport.messages[0]!.message.from.email, "hello@acme.example");

    const rows = await s.api.runtime.knex("email_sends").where({ company_id: s.a.companyId }).orderBy("recipient_email");
    t.deepEqual(
      rows.map((row) => [row.id, row.email_type, row.automation_id, row.automation_node_id, Boolean(row.is_test)]),
      sent.body.results.map((result: { emailSendId: string }) => result.emailSendId).map((sendId: string) => [sendId, "sequence", id, email, true]),
    );
    t.like((await s.call("GET", `/api/v1/metrics/sequences/${id}`)).body.stats, { sent: 0 });
    t.like((await s.call("GET", "/api/v1/metrics?emailType=sequence")).body.stats, { sent: 0 });

    t.is((await send({ recipients: [] })).status, 422);
    t.is((await send({ recipients: Array.from({ length: 11 }, (_, i) => `r${i}@example.com`) })).status, 422);
    t.is((await send({ recipients: ["not-an-email"] })).status, 422);
    t.is((await send({ recipients: ["ann@example.com"] }, delay)).status, 400);
    t.like(await send({ recipients: ["ann@example.com"] }, email, s.b), { status: 404, body: { error: "Sequence not found" } });
    t.is((await s.api.runtime.knex("email_sends").where({ company_id: s.a.companyId })).length, 2, "refused tests send nothing");
  });
}
