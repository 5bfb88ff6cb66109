import test from "ava";
import { ProfileRepository } from "../../../core/company/ports.js";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, DAY, MINUTE, sequenceSession } from "../../helpers/sequence-session.js";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence steps ${title}`;

  test(name("tags, attributes from the event, a list, an email and a condition branch; unlimited sequences take a contact again"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const list = await s.call("POST", "/api/v1/lists", { body: { name: "Customers" } });
    t.is(list.status, 200, JSON.stringify(list.body));
    const listId: string = list.body.list.id;
    const created = await s.call("POST", "/api/v1/sequences", {
      body: {
        name: "Purchase",
        trigger: "event_received",
        eventName: "purchased",
        steps: [
          { nodeType: "action_add_tag", config: { tagName: "Customer" } },
          {
            type: "update_subscriber",
            firstName: "{{event.buyer.first}}",
            customAttributeUpdates: [
              { name: "plan", value: "{{event.plan}}" },
              { name: "seats", value: "{{event.seats}}", valueType: "number" },
              { name: "note", value: "bought {{event.plan}}" },
            ],
          },
          { nodeType: "action_add_to_list", config: { listId } },
          { subject: "Thanks {{firstName}} for {{plan}}", html: "<p>Thanks</p>" },
        ],
      },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.sequence.id;
    const thanks = created.body.sequence.nodes.find((node: { nodeType: string }) => node.nodeType === "action_email").id;
    const withElse = await s.call("PUT", `/api/v1/sequences/${id}`, {
      body: {
        branch: {
          afterNodeId: thanks,
          branches: [{ id: "big", conditionType: "field_greater_than", fieldName: "seats", fieldValue: 10, steps: [{ subject: "Big", html: "<p>big</p>" }] }],
          elseSteps: [{ subject: "Small", html: "<p>small</p>" }],
        },
      },
    });
    t.is(withElse.status, 200, JSON.stringify(withElse.body));
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enable`)).status, 200);

    await s.call("POST", "/api/v1/subscribers/events", {
      body: { email: "ann@example.com", event: "purchased", properties: { plan: "pro", seats: "20", buyer: { first: "Ann" } } },
    });
    await s.call("POST", "/api/v1/subscribers/events", {
      body: { email: "bob@example.com", event: "purchased", properties: { plan: "basic", seats: 3, buyer: { first: "Bob" } } },
    });
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Thanks Ann for pro", "Big"], "bob@example.com": ["Thanks Bob for basic", "Small"] });

    const ann = (await s.call("GET", "/api/v1/subscribers/ann%40example.com")).body.subscriber;
    t.deepEqual(ann.tags, ["customer"]);
    t.is(ann.firstName, "Ann");
    t.like(ann.customAttributes, { plan: "pro", seats: 20, note: "bought pro" });
    const members = await s.api.runtime.knex("list_memberships").where({ list_id: listId }).orderBy("subscriber_id");
    t.is(members.length, 2);

    const [enrollment] = await s.api.runtime.knex("sequence_enrollments").where({ sequence_id: id, subscriber_id: ann.id });
    const steps = await s.api.runtime.knex("sequence_enrollment_steps").where({ enrollment_id: enrollment.id }).orderBy("step_number");
    t.deepEqual(
      steps.map((step) => step.outcome),
      ["tag_added", "attributes_updated", "list_added", "email_queued", "branched", "email_queued"],
    );

    // unlimited (the default): a finished contact enters again on the next event.
    await s.call("POST", "/api/v1/subscribers/events", { body: { email: "ann@example.com", event: "purchased", properties: { plan: "team", seats: 4 } } });
    await s.runJobs();
    t.deepEqual(s.received()["ann@example.com"], ["Thanks Ann for pro", "Big", "Thanks Ann for team", "Small"]);
  });

  test(name("cancel: bulk is a dry run by default, one contact is cancelled at once, and cancelled contacts receive nothing more"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, {
      name: "Drip",
      trigger: "event_received",
      eventName: "never",
      steps: [
        { subject: "One", html: "<p>1</p>" },
        { subject: "Two", html: "<p>2</p>", delayDays: 1 },
      ],
    });
    for (const email of ["ann@example.com", "bob@example.com", "cy@example.com"])
      t.is((await s.call("POST", "/api/v1/subscribers", { body: { email } })).status, 200);
    const enrolled = await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { emails: ["ann@example.com", "bob@example.com", "cy@example.com"] } });
    t.like(enrolled.body, { enrolled: 3, skipped: 0, notFound: [] });
    await s.runJobs();
    const ann = enrolled.body.enrollments.find((e: { email: string }) => e.email === "ann@example.com").subscriberId;

    const dry = await s.call("POST", `/api/v1/sequences/${id}/enrollments/cancel`, { body: { cancelAll: true } });
    t.is(dry.status, 200, JSON.stringify(dry.body));
    t.like(dry.body, {
      sequenceId: id,
      dryRun: true,
      target: { mode: "all", notFoundSubscriberIds: [] },
      matchedCount: 3,
      cancelledCount: 0,
      remainingCount: 3,
      hasMore: false,
    });
    t.is(dry.body.enrollments.length, 3);
    t.is((await s.call("GET", `/api/v1/sequences/${id}/enrollments`)).body.pagination.total, 3, "a dry run changes nothing");

    const one = await s.call("POST", `/api/v1/sequences/${id}/enrollments/cancel`, { body: { subscriberId: ann, reason: "asked us" } });
    t.like(one.body, { dryRun: false, target: { mode: "subscriber" }, matchedCount: 1, cancelledCount: 1, remainingCount: 0 });
    t.like(one.body.enrollments[0], { status: "cancelled", failedReason: "asked us" });
    const unknown = await s.call("POST", `/api/v1/sequences/${id}/enrollments/cancel`, { body: { subscriberIds: ["sub_nobody"], dryRun: false } });
    t.like(unknown.body, { target: { mode: "subscribers", notFoundSubscriberIds: ["sub_nobody"] }, matchedCount: 0, cancelledCount: 0 });
    const two = await s.call("POST", `/api/v1/sequences/${id}/enrollments/cancel`, { body: { cancelAll: true, dryRun: false } });
    t.like(two.body, { matchedCount: 2, cancelledCount: 2, remainingCount: 0 });
    const bad = await s.call("POST", `/api/v1/sequences/${id}/enrollments/cancel`, { body: { cancelAll: true, subscriberId: ann } });
    t.is(bad.status, 400);

    s.api.clock.advance(DAY + MINUTE);
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["One"], "bob@example.com": ["One"], "cy@example.com": ["One"] });
    const cancelled = await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=cancelled&email=ann@example.com`);
    t.deepEqual(
      cancelled.body.enrollments.map((e: Record<string, unknown>) => [e.email, e.status, e.failedReason]),
      [["ann@example.com", "cancelled", "asked us"]],
    );

    // Bad input is a 4xx and changes nothing.
    t.is((await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=sleeping`)).status, 400);
    t.is((await s.call("GET", `/api/v1/sequences/${id}/enrollments?limit=501`)).status, 422);
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: {} })).status, 400);
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { emails: ["ann@example.com"], targetNodeId: "node_nope" } })).status, 400);
    const many = Array.from({ length: 501 }, (_, i) => `c${i}@example.com`);
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { emails: many } })).status, 422);
  });

  test(name("a random split sends each contact down one of its paths"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const id = await createAndEnable(s, {
      name: "Split",
      trigger: "event_received",
      eventName: "joined",
      steps: [{ nodeType: "logic_branch", config: { splitMode: "random", paths: [{ id: "a" }, { id: "b" }], randomPercentages: [50, 50] } }],
    });
    const sequence = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence;
    const branch = sequence.nodes.find((node: { nodeType: string }) => node.nodeType === "logic_branch");
    t.truthy(branch);
    const emails = Array.from({ length: 20 }, (_, i) => `c${i}@example.com`);
    for (const email of emails) {
      // Paced under the per-key rate limit of 20 requests a second.
      await new Promise((resolve) => setTimeout(resolve, 60));
      t.is((await s.call("POST", "/api/v1/subscribers/events", { body: { email, event: "joined" } })).status, 200);
    }
    await s.runJobs();
    const steps = await s.api.runtime.knex("sequence_enrollment_steps").where({ node_id: branch.id });
    t.is(steps.length, 20);
    const paths = steps.map((step) => (typeof step.detail === "string" ? JSON.parse(step.detail) : step.detail).path);
    t.true(paths.includes("a") && paths.includes("b"), "twenty contacts do not all take one path of a 50/50 split");
    const completed = await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=completed&limit=100`);
    t.is(completed.body.pagination.total, 20);
  });

  test(name("emails go from the sequence's sender profile, or the step's own From, on the company's verified domain"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const news = await s.api.runtime.container
      .get<ProfileRepository>(ProfileRepository)
      .insertSender(s.a.companyId, { id: "sp_news", name: "Acme News", email: "news@acme.example", at: s.api.clock.now() });
    await createAndEnable(s, {
      name: "Identities",
      trigger: "event_received",
      eventName: "joined",
      senderProfileId: news.id,
      steps: [
        { subject: "From the profile", html: "<p>1</p>" },
        { subject: "From the step", html: "<p>2</p>", fromEmail: "team@acme.example", fromName: "The Team", replyTo: "help@acme.example" },
        { subject: "Off-domain", html: "<p>3</p>", fromEmail: "someone@elsewhere.example" },
      ],
    });
    t.is((await s.call("POST", "/api/v1/subscribers/events", { body: { email: "ann@example.com", event: "joined" } })).status, 200);
    await s.runJobs();
    t.deepEqual(
      s.transport.messages.map(({ message }) => [message.subject, message.from.email, message.from.name, message.replyTo ?? null]),
      [
        ["From the profile", "news@acme.example", "Acme News", null],
        ["From the step", "team@acme.example", "The Team", "help@acme.example"],
        ["Off-domain", "hello@acme.example", "Acme", null],
      ],
    );
  });
}
