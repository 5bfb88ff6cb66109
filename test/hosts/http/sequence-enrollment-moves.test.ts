import test from "ava";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, DAY, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

/** email A -> 3 days -> email B -> 1 day -> email C. */
const SERIES = {
  name: "Series",
  trigger: "event_received",
  eventName: "signed_up",
  steps: [
    { subject: "A for {{firstName}}", html: "<p>A</p>" },
    { subject: "B for {{firstName}}", html: "<p>B</p>", delayDays: 3 },
    { subject: "C for {{firstName}}", html: "<p>C</p>", delayDays: 1 },
  ],
};

/** The node IDs along the one path from the trigger, completion last. */
async function pathOf(s: SequenceSession, id: string): Promise<string[]> {
  const { nodes, edges } = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence;
  const ids: string[] = [];
  let current: string | undefined = nodes.find((node: { nodeType: string }) => node.nodeType === "trigger").id;
  while (current) {
    ids.push(current);
    current = edges.find((edge: { sourceNodeId: string }) => edge.sourceNodeId === current)?.targetNodeId;
  }
  return ids;
}

/** Creates and enables SERIES and takes ann, bob and cat through email A: all three wait at the first delay. */
async function started(s: SequenceSession): Promise<{ id: string; ids: Record<string, string>; path: string[] }> {
  const id = await createAndEnable(s, SERIES);
  const ids: Record<string, string> = {};
  for (const name of ["ann", "bob", "cat"]) {
    const made = await s.call("POST", "/api/v1/subscribers", { body: { email: `${name}@example.com`, firstName: name } });
    ids[name] = made.body.subscriber.id;
  }
  const enrolled = await s.call("POST", `/api/v1/sequences/${id}/enroll`, { body: { subscriberIds: Object.values(ids) } });
  if (enrolled.body.enrolled !== 3) throw new Error(JSON.stringify(enrolled.body));
  await s.runJobs();
  return { id, ids, path: await pathOf(s, id) };
}

const where = async (s: SequenceSession, id: string) =>
  Object.fromEntries(
    (await s.call("GET", `/api/v1/sequences/${id}/enrollments?status=active,waiting,completed&limit=500`)).body.enrollments.map(
      (e: { email: string; status: string; currentNodeId: string }) => [e.email, `${e.status} ${e.currentNodeId}`],
    ),
  );

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: enrollment move ${title}`;

  test(name("is a dry run by default, then moves a batch within the daily limit, tags it, and the engine takes it on at once"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const { id, ids, path } = await started(s);
    const [, , delay1, emailB, , emailC] = path as [string, string, string, string, string, string];
    const before = await where(s, id);
    t.deepEqual(Object.values(before), [`waiting ${delay1}`, `waiting ${delay1}`, `waiting ${delay1}`]);

    const dry = await s.call("POST", `/api/v1/sequences/${id}/enrollments/move`, { body: { fromNodeId: delay1 } });
    t.is(dry.status, 200, JSON.stringify(dry.body));
    t.like(dry.body, {
      sequenceId: id,
      dryRun: true,
      fromNodeId: delay1,
      targetNodeId: emailB,
      sort: "wait_until_asc",
      requestedLimit: 100,
      effectiveLimit: 100,
      matchedCount: 3,
      movedCount: 0,
      remainingCount: 3,
      skippedCount: 0,
      dailyLimit: null,
      movedInWindow: 0,
      dailyRemaining: null,
      enqueuedCount: 0,
      tagResult: null,
      hasMore: false,
    });
    t.is(dry.body.enrollments.length, 3);
    await s.runJobs();
    t.deepEqual(await where(s, id), before, "a dry run changes nothing");
    t.is(s.transport.messages.length, 3);

    const moved = await s.call("POST", `/api/v1/sequences/${id}/enrollments/move`, {
      body: { fromNodeId: delay1, dryRun: false, limit: 5, dailyLimit: 2, tags: ["Moved Early"], reason: "skip the wait" },
    });
    t.is(moved.status, 200, JSON.stringify(moved.body));
    t.like(moved.body, {
      dryRun: false,
      effectiveLimit: 2,
      matchedCount: 3,
      movedCount: 2,
      remainingCount: 1,
      skippedCount: 0,
      dailyLimit: 2,
      movedInWindow: 2,
      dailyRemaining: 0,
      enqueuedCount: 2,
      enqueueErrors: [],
      tagResult: { tags: ["moved-early"], taggedCount: 2 },
      hasMore: true,
    });
    t.is(moved.body.enrollments.length, 2);
    for (const enrollment of moved.body.enrollments)
      t.like(enrollment, { status: "active", currentNodeId: emailB, movedFromNodeId: delay1, moveReason: "skip the wait", waitUntil: null });
    const movedEmails: string[] = moved.body.enrollments.map((e: { email: string }) => e.email).sort();

    // The engine takes them on at once: email B now, not in three days.
    await s.runJobs();
    const received = s.received();
    for (const email of movedEmails) t.deepEqual(received[email], [`A for ${email.split("@")[0]}`, `B for ${email.split("@")[0]}`]);
    t.is(s.transport.messages.length, 5);
    const listed = await s.call("GET", `/api/v1/sequences/${id}/enrollments?email=${encodeURIComponent(movedEmails[0]!)}`);
    t.like(listed.body.enrollments[0], { status: "waiting", movedFromNodeId: delay1, moveReason: "skip the wait" });
    t.is(typeof listed.body.enrollments[0].movedAt, "string");
    const tagged = await s.call("GET", `/api/v1/subscribers/${encodeURIComponent(movedEmails[0]!)}`);
    t.true(tagged.body.subscriber.tags.includes("moved-early"));

    // The day's moves are used up.
    const capped = await s.call("POST", `/api/v1/sequences/${id}/enrollments/move`, { body: { fromNodeId: delay1, dryRun: false, dailyLimit: 2 } });
    t.like(capped.body, { effectiveLimit: 0, matchedCount: 1, movedCount: 0, remainingCount: 1, movedInWindow: 2, dailyRemaining: 0, hasMore: true });

    // The last one by its contact, straight to email C; a day later the window has room again.
    const last = Object.keys(ids).find((n) => !movedEmails.includes(`${n}@example.com`))!;
    s.api.clock.advance(DAY + 1);
    const direct = await s.call("POST", `/api/v1/sequences/${id}/enrollments/move`, {
      body: { fromNodeId: delay1, targetNodeId: emailC, subscriberIds: [ids[last]], dryRun: false, dailyLimit: 2 },
    });
    t.like(direct.body, { targetNodeId: emailC, movedCount: 1, movedInWindow: 1, dailyRemaining: 1, remainingCount: 0, hasMore: false, tagResult: null });
    await s.runJobs();
    t.deepEqual(s.received()[`${last}@example.com`], [`A for ${last}`, `C for ${last}`]);
    t.is((await where(s, id))[`${last}@example.com`], `completed ${path.at(-1)}`);
  });

  test(name("refuses bad input with a clear error and changes nothing; another company's sequence is 404"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const { id, path } = await started(s);
    const [trigger, , delay1] = path as [string, string, string];
    const completion = path.at(-1)!;
    const before = await where(s, id);
    const move = (body: unknown, company = s.a) => s.call("POST", `/api/v1/sequences/${id}/enrollments/move`, { body }, company);

    const missing = await move({ dryRun: false });
    t.is(missing.status, 422);
    t.true(missing.body.errors.some((e: { path: string }) => e.path === "fromNodeId"));
    t.is((await move({ fromNodeId: delay1, limit: 501, dryRun: false })).status, 422);
    t.is((await move({ fromNodeId: delay1, dailyLimit: 0, dryRun: false })).status, 422);
    t.is((await move({ fromNodeId: delay1, sort: "random", dryRun: false })).status, 422);
    for (const [body, pattern] of [
      [{ fromNodeId: delay1, targetNodeId: completion, dryRun: false }, /not at the completion node/],
      [{ fromNodeId: delay1, targetNodeId: trigger, dryRun: false }, /not at the trigger node/],
      [{ fromNodeId: delay1, targetNodeId: "node_nope", dryRun: false }, /has no node node_nope/],
      [{ fromNodeId: "node_gone", dryRun: false }, /targetNodeId is required/],
      [{ fromNodeId: delay1, targetNodeId: delay1, dryRun: false }, /another node than fromNodeId/],
      [{ fromNodeId: delay1, tags: ["!!!"], dryRun: false }, /tags/],
    ] as const) {
      const refused = await move(body);
      t.is(refused.status, 400, JSON.stringify(body));
      t.false(refused.body.success);
      t.regex(refused.body.error, pattern);
    }
    const foreign = await move({ fromNodeId: delay1, dryRun: false }, s.b);
    t.is(foreign.status, 404);
    t.is(foreign.body.error, "Sequence not found");
    await s.runJobs();
    t.deepEqual(await where(s, id), before);
    t.is(s.transport.messages.length, 3);
  });

  test(name("realign: deleting a live step moves its contacts to the step after it, and deleting the last step ends their runs"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const { id, path } = await started(s);
    const [, , delay1, emailB, delay2, emailC, completion] = path as [string, string, string, string, string, string, string];
    const edit = async (graphEdit: Record<string, unknown>) => {
      const revision = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence.graphRevision;
      return s.call("PUT", `/api/v1/sequences/${id}`, { body: { graphEdit: { ...graphEdit, expectedRevision: revision }, confirmStructuralChange: true } });
    };

    const deleted = await edit({ action: "delete_node", nodeId: delay1 });
    t.is(deleted.status, 200, JSON.stringify(deleted.body));
    t.like(deleted.body.sequence, { deletedNodeId: delay1, migratedRecipientCount: 3, completedRecipientCount: 0 });
    const moved = (await s.call("GET", `/api/v1/sequences/${id}/enrollments`)).body.enrollments;
    t.is(moved.length, 3);
    for (const enrollment of moved) {
      t.like(enrollment, { status: "active", currentNodeId: emailB, currentNodeMissing: false, movedFromNodeId: delay1 });
      t.regex(enrollment.moveReason, /deleted from the sequence/);
    }
    // They go on at once: email B, then they wait at the second delay.
    await s.runJobs();
    t.deepEqual(s.received()["ann@example.com"], ["A for ann", "B for ann"]);
    t.deepEqual(Object.values(await where(s, id)), [`waiting ${delay2}`, `waiting ${delay2}`, `waiting ${delay2}`]);

    // Nobody at email C: deleting it moves no one. Deleting the delay now before the completion ends their runs.
    t.like((await edit({ action: "delete_node", nodeId: emailC })).body.sequence, { migratedRecipientCount: 0, completedRecipientCount: 0 });
    const ended = await edit({ action: "delete_node", nodeId: delay2 });
    t.like(ended.body.sequence, { migratedRecipientCount: 0, completedRecipientCount: 3 });
    t.deepEqual(Object.values(await where(s, id)), [`completed ${completion}`, `completed ${completion}`, `completed ${completion}`]);
    s.api.clock.advance(2 * DAY);
    await s.runJobs();
    t.is(s.transport.messages.length, 6, "no email after the runs ended");
    // An edit that removes nothing says nothing of recipients.
    const moveOnly = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { name: "Renamed" } });
    t.is(moveOnly.status, 200);
    t.false("migratedRecipientCount" in moveOnly.body.sequence);
  });
}
