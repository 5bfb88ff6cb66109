import test from "ava";
import { AdvanceAudienceEnrollment } from "../../../core/sequences/advance-audience-enrollment.js";
import { insertContactRows, type ContactRow } from "../../helpers/contact-rows.js";
import { dialects } from "../../helpers/databases.js";
import { createAndEnable, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";

const CREATED = new Date("2026-11-01T00:00:00.000Z");
const DRAFT = { name: "Winback", steps: [{ subject: "We miss you", html: "<p>Come back</p>" }] };

/** `count` active contacts of company A in the list, IDs in order (`sub_m...`), so batches are predictable. */
function members(prefix: string, count: number, extra: Partial<ContactRow> = {}): ContactRow[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `sub_${prefix}${String(index).padStart(4, "0")}`,
    email: `${prefix}${index}@example.com`,
    createdAt: CREATED,
    ...extra,
  }));
}

async function listWith(s: SequenceSession, contacts: readonly ContactRow[]): Promise<string> {
  const list = await s.call("POST", "/api/v1/lists", { body: { name: "Lapsed" } });
  const listId: string = list.body.list.id;
  await insertContactRows(
    s.api.runtime.knex,
    s.a.companyId,
    contacts.map((contact) => ({ ...contact, lists: [{ listId }] })),
  );
  return listId;
}

async function draft(s: SequenceSession): Promise<string> {
  const created = await s.call("POST", "/api/v1/sequences", { body: DRAFT });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return created.body.sequence.id;
}

/** One batch of the run, as its job would run it. */
const oneBatch = (s: SequenceSession, sequenceId: string, runId: string) =>
  s.api.runtime.container.get(AdvanceAudienceEnrollment).execute(s.a.companyId, sequenceId, runId);

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: audience enrollments ${title}`;

  test(name("enroll a list in batches: the counts move as it goes, and the contacts are enrolled"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const sequenceId = await draft(s);
    // 150 active members, one unsubscribed member (skipped), one former member and an outsider (not in the audience).
    const listId = await listWith(s, [...members("m", 150), { id: "sub_mzzz", email: "gone@example.com", status: "unsubscribed", createdAt: CREATED }]);
    await insertContactRows(s.api.runtime.knex, s.a.companyId, [
      { id: "sub_former", email: "former@example.com", createdAt: CREATED, lists: [{ listId, unsubscribed: true }] },
      { id: "sub_outsider", email: "outsider@example.com", createdAt: CREATED },
    ]);

    const started = await s.call("POST", `/api/v1/sequences/${sequenceId}/audience-enrollments`, { body: { audience: { type: "list", listId } } });
    t.is(started.status, 202, JSON.stringify(started.body));
    const run = started.body.audienceEnrollment;
    t.like(run, {
      sequenceId,
      status: "queued",
      audience: { type: "list", listId },
      targetNodeId: null,
      estimatedCount: 151,
      processedCount: 0,
      enrolledCount: 0,
      skippedCount: 0,
      source: "api",
      error: null,
      createdAt: "2026-11-22T10:00:00.000Z",
      startedAt: null,
      completedAt: null,
      cancelRequestedAt: null,
    });
    t.regex(run.id, /^aen_/);

    await oneBatch(s, sequenceId, run.id);
    const midway = await s.call("GET", `/api/v1/sequences/${sequenceId}/audience-enrollments/${run.id}`);
    t.is(midway.status, 200);
    t.like(midway.body.audienceEnrollment, { status: "running", processedCount: 100, enrolledCount: 100, skippedCount: 0, completedAt: null });
    t.is(midway.body.audienceEnrollment.startedAt, "2026-11-22T10:00:00.000Z");

    await s.runJobs();
    const done = await s.call("GET", `/api/v1/sequences/${sequenceId}/audience-enrollments/${run.id}`);
    t.like(done.body.audienceEnrollment, { status: "completed", estimatedCount: 151, processedCount: 151, enrolledCount: 150, skippedCount: 1 });
    t.is(done.body.audienceEnrollment.completedAt, "2026-11-22T10:00:00.000Z");

    const enrollments = await s.call("GET", `/api/v1/sequences/${sequenceId}/enrollments?limit=500`);
    t.is(enrollments.body.pagination.total, 150);
    const emails = new Set(enrollments.body.enrollments.map((e: { email: string }) => e.email));
    t.false(emails.has("gone@example.com") || emails.has("former@example.com") || emails.has("outsider@example.com"));
    t.is(s.transport.messages.length, 0, "a draft sequence keeps its contacts until it is enabled");

    const listed = await s.call("GET", `/api/v1/sequences/${sequenceId}/audience-enrollments`);
    t.is(listed.status, 200);
    t.deepEqual(
      listed.body.audienceEnrollments.map((r: { id: string; status: string }) => [r.id, r.status]),
      [[run.id, "completed"]],
    );
    t.deepEqual(listed.body.pagination, { limit: 50, nextCursor: null, hasMore: false });
  });

  test(name("cancel: queued is cancelled at once, running stops after the batch, completed is refused"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const sequenceId = await draft(s);
    const listId = await listWith(s, members("c", 150));
    const start = () => s.call("POST", `/api/v1/sequences/${sequenceId}/audience-enrollments`, { body: { audience: { type: "list", listId } } });
    const cancel = (runId: string) => s.call("POST", `/api/v1/sequences/${sequenceId}/audience-enrollments/${runId}/cancel`);
    const get = async (runId: string) => (await s.call("GET", `/api/v1/sequences/${sequenceId}/audience-enrollments/${runId}`)).body.audienceEnrollment;

    // queued -> cancelled at once; its job enrolls no one.
    const queued = (await start()).body.audienceEnrollment;
    s.api.clock.advance(1000);
    const cancelledQueued = await cancel(queued.id);
    t.is(cancelledQueued.status, 200, JSON.stringify(cancelledQueued.body));
    t.like(cancelledQueued.body.audienceEnrollment, {
      status: "cancelled",
      completedAt: "2026-11-22T10:00:01.000Z",
      cancelRequestedAt: "2026-11-22T10:00:01.000Z",
      processedCount: 0,
    });
    t.is(typeof cancelledQueued.body.message, "string");
    await s.runJobs();
    t.like(await get(queued.id), { status: "cancelled", processedCount: 0, enrolledCount: 0 });
    t.is((await s.call("GET", `/api/v1/sequences/${sequenceId}/enrollments`)).body.pagination.total, 0);
    const again = await cancel(queued.id);
    t.is(again.status, 400);
    t.false(again.body.success);

    // running -> cancel requested; the run stops after the batch being enrolled, and those contacts stay enrolled.
    const running = (await start()).body.audienceEnrollment;
    await oneBatch(s, sequenceId, running.id);
    s.api.clock.advance(1000);
    const requested = await cancel(running.id);
    t.is(requested.status, 200, JSON.stringify(requested.body));
    t.like(requested.body.audienceEnrollment, { status: "running", processedCount: 100, completedAt: null, cancelRequestedAt: "2026-11-22T10:00:02.000Z" });
    await s.runJobs();
    t.like(await get(running.id), {
      status: "cancelled",
      processedCount: 100,
      enrolledCount: 100,
      cancelRequestedAt: "2026-11-22T10:00:02.000Z",
      completedAt: "2026-11-22T10:00:02.000Z",
    });
    t.is((await s.call("GET", `/api/v1/sequences/${sequenceId}/enrollments`)).body.pagination.total, 100);

    // completed -> 400, unchanged.
    const full = (await start()).body.audienceEnrollment;
    await s.runJobs();
    t.like(await get(full.id), { status: "completed", processedCount: 150, enrolledCount: 50, skippedCount: 100 });
    const refused = await cancel(full.id);
    t.is(refused.status, 400);
    t.like(refused.body, { success: false, error: "Audience enrollment is already completed and cannot be cancelled" });
    t.like(await get(full.id), { status: "completed", cancelRequestedAt: null });
  });

  test(name("every contact, a segment or a tag, at a target step, through the live engine"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const sequenceId = await createAndEnable(s, {
      name: "Announce",
      steps: [
        { subject: "First", html: "<p>1</p>" },
        { subject: "Second", html: "<p>2</p>" },
      ],
    });
    const detail = (await s.call("GET", `/api/v1/sequences/${sequenceId}`)).body.sequence;
    const second = detail.nodes.filter((node: { nodeType: string }) => node.nodeType === "action_email")[1].id;
    await insertContactRows(s.api.runtime.knex, s.a.companyId, [
      { id: "sub_ann", email: "ann@example.com", createdAt: CREATED, tags: ["vip"], attributes: { plan: "pro" } },
      { id: "sub_bob", email: "bob@example.com", createdAt: CREATED, attributes: { plan: "pro" } },
      { id: "sub_cat", email: "cat@example.com", createdAt: CREATED },
    ]);
    const start = (body: Record<string, unknown>) => s.call("POST", `/api/v1/sequences/${sequenceId}/audience-enrollments`, { body });

    const tagged = await start({ audience: { type: "tag", tag: "VIP" }, targetNodeId: second });
    t.is(tagged.status, 202, JSON.stringify(tagged.body));
    t.like(tagged.body.audienceEnrollment, { audience: { type: "tag", tag: "vip" }, targetNodeId: second, estimatedCount: 1 });
    await s.runJobs();
    t.deepEqual(s.received(), { "ann@example.com": ["Second"] });

    const segment = await s.call("POST", "/api/v1/segments", { body: { name: "Pro", filters: [{ field: "attribute", operator: "is", value: "plan:pro" }] } });
    const bySegment = await start({ audience: { type: "segment", segmentId: segment.body.segment.id } });
    t.like(bySegment.body.audienceEnrollment, { estimatedCount: 2 });
    await s.runJobs();
    // Ann finished her run, so the (unlimited) sequence takes her again, from the first step.
    t.deepEqual(s.received(), { "ann@example.com": ["Second", "First", "Second"], "bob@example.com": ["First", "Second"] });

    const everyone = await start({ audience: { type: "all" } });
    t.like(everyone.body.audienceEnrollment, { estimatedCount: 3 });
    await s.runJobs();
    const run = (await s.call("GET", `/api/v1/sequences/${sequenceId}/audience-enrollments/${everyone.body.audienceEnrollment.id}`)).body.audienceEnrollment;
    t.like(run, { status: "completed", processedCount: 3, enrolledCount: 3, skippedCount: 0 });
    t.is(s.received()["cat@example.com"]?.length, 2);
    const sends = await s.api.runtime.knex("email_sends").where({ company_id: s.a.companyId });
    t.true(sends.every((send) => send.email_type === "sequence" && send.automation_id === sequenceId));
  });

  test(name("bad input is refused and changes nothing; another company sees none of it"), async (t) => {
    const s = await sequenceSession(t, dialect);
    const sequenceId = await draft(s);
    const listId = await listWith(s, members("x", 2));
    const theirList = (await s.call("POST", "/api/v1/lists", { body: { name: "Theirs" } }, s.b)).body.list.id;
    const path = `/api/v1/sequences/${sequenceId}/audience-enrollments`;
    const start = (body: unknown) => s.call("POST", path, { body });

    t.like((await start({ audience: { type: "list", listId: theirList } })).body, { success: false, error: "List not found" });
    t.is((await start({ audience: { type: "list", listId: theirList } })).status, 404);
    t.like(await start({ audience: { type: "segment", segmentId: "seg_nope" } }), { status: 404, body: { error: "Segment not found" } });
    t.like(await start({ audience: { type: "tag", tag: "nobody-has-it" } }), { status: 404, body: { error: "Tag not found" } });
    t.is((await start({ audience: { type: "list" } })).status, 422);
    t.is((await start({ audience: { type: "everyone" } })).status, 422);
    t.is((await start({})).status, 422);
    const badTarget = await start({ audience: { type: "all" }, targetNodeId: "node_nope" });
    t.is(badTarget.status, 400);
    t.is(badTarget.body.error, "targetNodeId: the sequence has no node node_nope");
    t.like(await s.call("POST", "/api/v1/sequences/seq_nope/audience-enrollments", { body: { audience: { type: "all" } } }), {
      status: 404,
      body: { error: "Sequence not found" },
    });
    t.deepEqual((await s.call("GET", path)).body.audienceEnrollments, []);

    const mine = (await start({ audience: { type: "list", listId } })).body.audienceEnrollment;
    const asB = (method: string, suffix = "") => s.call(method, `${path}/${mine.id}${suffix}`, {}, s.b);
    t.like(await asB("GET"), { status: 404, body: { error: "Audience enrollment not found" } });
    t.like(await asB("POST", "/cancel"), { status: 404, body: { error: "Audience enrollment not found" } });
    t.like(await s.call("POST", path, { body: { audience: { type: "all" } } }, s.b), { status: 404, body: { error: "Sequence not found" } });
    t.like(await s.call("GET", path, {}, s.b), { status: 404 });
    await s.runJobs();
    t.like((await s.call("GET", `${path}/${mine.id}`)).body.audienceEnrollment, { status: "completed", enrolledCount: 2 });

    await s.call("POST", `/api/v1/sequences/${sequenceId}/archive`);
    const archived = await start({ audience: { type: "all" } });
    t.is(archived.status, 400);
    t.is((await s.call("GET", path)).body.audienceEnrollments.length, 1);
  });
}
