import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { JobStore } from "../../../core/ports/job-queue.js";
import { ADVANCE_OPERATION_JOB, SELECTION_PAGE_SIZE } from "../../../core/subscriber-operations/advance-operation.js";
import { SaveContact, type ContactInput } from "../../../core/subscribers/save-contact.js";
import { normalizeTagName } from "../../../core/tags/model.js";
import { Database } from "../../../hosts/tokens.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { JobHandlers } from "../../../hosts/worker/job-handlers.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

const DAY = 86_400_000;
const ADD = "/api/v1/subscribers/bulk/tags/add";
const REMOVE = "/api/v1/subscribers/bulk/tags/remove";
const OPERATIONS = "/api/v1/subscribers/operations";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  readonly knex: Knex;
  /** Calls with the company's keys in turn, so long tests stay inside each key's 20 requests a second. */
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, keys = 2, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container);
  const ring = [company.ownerKey];
  for (let i = 1; i < keys; i++)
    ring.push((await createMemberKeyFixture(fixture.runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
  let next = 0;
  return {
    api: fixture,
    company,
    knex: fixture.runtime.container.get<Knex>(Database),
    call: (method, path, options = {}) => fixture.call(method, path, { ...options, key: ring[next++ % ring.length]! }),
  };
}

async function saveContact(s: Session, input: ContactInput): Promise<string> {
  const saved = await s.api.runtime.container.get(SaveContact).execute(s.company.companyId, input, "skip");
  if (saved._tag === "Left") throw new Error(saved.left.message);
  return saved.right.subscriber.id;
}

/** `count` contacts written in batches (IDs sort in creation order), for selections larger than a page. */
async function seedContacts(s: Session, count: number, prefix = "bulk"): Promise<string[]> {
  const at = toDbDate(s.api.clock.now());
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `sub_${prefix}${String(i).padStart(6, "0")}${s.company.companyId.slice(-6)}`,
    company_id: s.company.companyId,
    email: `${prefix}${i}@example.com`,
    custom_attributes: "{}",
    created_at: at,
    updated_at: at,
  }));
  await s.knex.batchInsert("subscribers", rows, 100);
  return rows.map((row) => row.id);
}

/** Tag names of a contact, alphabetical, as stored. */
async function tagsOf(s: Session, subscriberId: string): Promise<string[]> {
  const rows: Array<{ name: string }> = await s
    .knex("subscriber_tags")
    .join("tags", "tags.id", "subscriber_tags.tag_id")
    .where({ subscriber_id: subscriberId })
    .orderBy("name")
    .select("name");
  return rows.map((row) => row.name);
}

async function taggedCount(s: Session, tag: string, companyId = s.company.companyId): Promise<number> {
  const row = await s
    .knex("subscriber_tags")
    .join("tags", "tags.id", "subscriber_tags.tag_id")
    .where({ "tags.company_id": companyId, "tags.name": tag })
    .count("* as n")
    .first();
  return Number(row?.n ?? 0);
}

/** Runs due jobs one at a time until one step of an operation ran (the way a worker runs them, without settling others early). */
async function runOneStep(api: ApiFixture, settle = true): Promise<void> {
  const store = api.runtime.container.get<JobStore>(JobStore);
  const handlers = api.runtime.container.get(JobHandlers);
  for (;;) {
    const [job] = await store.claim("test-stepper", 1, api.clock.now(), 60_000);
    if (!job) throw new Error("no operation step is due");
    await handlers.get(job.type)!(job);
    if (job.type === ADVANCE_OPERATION_JOB) {
      if (settle) await store.complete(job.id, "test-stepper", api.clock.now());
      return;
    }
    await store.complete(job.id, "test-stepper", api.clock.now());
  }
}

/** Runs every due job, including the steps they enqueue, until none is left. */
const runAllJobs = (api: ApiFixture): Promise<number> => createWorker(api.runtime.container, { concurrency: 2 }, { push: false }).runDue();

async function startOperation(s: Session, body: Record<string, unknown>): Promise<Record<string, any>> {
  const started = await s.call("POST", OPERATIONS, { body: { kind: "add_tags", ...body } });
  if (started.status !== 202) throw new Error(`operation not started: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body.operation;
}

async function operation(s: Session, id: string): Promise<Record<string, any>> {
  const found = await s.call("GET", `${OPERATIONS}/${id}`);
  if (found.status !== 200) throw new Error(`operation not read: ${found.status} ${JSON.stringify(found.body)}`);
  return found.body.operation;
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("bulk add and remove report matched, updated, unchanged, notFound and failures, and never create contacts"), async (t) => {
    const s = await session(t, dialect);
    const ada = await saveContact(s, { email: "ada@example.com", externalId: "ext-ada", tags: ["vip"] });
    const bob = await saveContact(s, { email: "bob@example.com", externalId: "ext-bob" });
    const cy = await saveContact(s, { email: "cy@example.com" });

    const added = await s.call("POST", ADD, {
      body: {
        tags: ["VIP", "Pro Customer"],
        emails: ["ADA@example.com", "bob@example.com", "nobody@example.com", "not-an-email"],
        externalIds: ["ext-bob", "ext-missing"],
        subscriberIds: [cy, "sub_missing"],
        triggerAutomations: true,
      },
    });
    t.is(added.status, 200);
    t.deepEqual(added.body, {
      success: true,
      tags: ["vip", "pro-customer"],
      requested: 8,
      matched: 3,
      updated: 3,
      unchanged: 0,
      failed: 1,
      notFound: { emails: ["nobody@example.com"], externalIds: ["ext-missing"], subscriberIds: ["sub_missing"] },
      failures: [{ email: "not-an-email", error: "Invalid email address" }],
      triggeredAutomations: false,
    });
    t.deepEqual(await tagsOf(s, ada), ["pro-customer", "vip"]);
    t.deepEqual(await tagsOf(s, bob), ["pro-customer", "vip"]);
    t.deepEqual(await tagsOf(s, cy), ["pro-customer", "vip"]);
    const contacts = await s.knex("subscribers").where({ company_id: s.company.companyId }).count("* as n").first();
    t.is(Number(contacts?.n), 3, "unknown contacts are not created");

    // Adding what they already have changes nothing.
    const again = await s.call("POST", ADD, { body: { tags: ["pro_customer"], emails: ["ada@example.com"], externalIds: ["ext-ada"] } });
    t.like(again.body, { success: true, requested: 2, matched: 1, updated: 0, unchanged: 1, failed: 0, failures: [] });

    // Removing: ada and bob lose the tag, a tag nobody has changes nothing and is not created.
    await s.call("POST", REMOVE, { body: { tags: ["vip"], subscriberIds: [cy] } });
    const removed = await s.call("POST", REMOVE, {
      body: { tags: ["VIP", "Ghost Tag"], emails: ["ada@example.com", "bob@example.com", "cy@example.com", "zed@example.com"] },
    });
    t.is(removed.status, 200);
    t.deepEqual(removed.body, {
      success: true,
      tags: ["vip", "ghost-tag"],
      requested: 4,
      matched: 3,
      updated: 2,
      unchanged: 1,
      failed: 0,
      notFound: { emails: ["zed@example.com"], externalIds: [], subscriberIds: [] },
      failures: [],
      triggeredAutomations: false,
    });
    t.deepEqual(await tagsOf(s, ada), ["pro-customer"]);
    t.deepEqual(await tagsOf(s, cy), ["pro-customer"]);
    t.falsy(await s.knex("tags").where({ company_id: s.company.companyId, name: "ghost-tag" }).first());
  });

  test(name("bulk tags take at most 500 contacts and at least one tag and one contact"), async (t) => {
    const s = await session(t, dialect);
    await saveContact(s, { email: "ada@example.com" });
    const emails = (count: number) => Array.from({ length: count }, (_, i) => `person${i}@example.com`);

    const tooMany = await s.call("POST", ADD, {
      body: { tags: ["vip"], emails: emails(400), externalIds: ["x"], subscriberIds: Array.from({ length: 100 }, (_, i) => `sub_${i}`) },
    });
    t.is(tooMany.status, 400);
    t.false(tooMany.body.success);
    t.is(
      tooMany.body.error,
      "At most 500 contacts can be tagged per request (got 501); start a subscriber operation (POST /api/v1/subscribers/operations) for more",
    );
    const removeTooMany = await s.call("POST", REMOVE, { body: { tags: ["vip"], emails: emails(501) } });
    t.is(removeTooMany.status, 400);

    const exactly = await s.call("POST", ADD, { body: { tags: ["vip"], emails: [...emails(499), "ada@example.com"] } });
    t.is(exactly.status, 200);
    t.like(exactly.body, { requested: 500, matched: 1, updated: 1 });
    t.is(exactly.body.notFound.emails.length, 499);

    const noTags = await s.call("POST", ADD, { body: { tags: [], emails: ["ada@example.com"] } });
    t.deepEqual([noTags.status, noTags.body.error], [400, "Provide at least one tag in tags"]);
    const blankTag = await s.call("POST", ADD, { body: { tags: ["!!!"], emails: ["ada@example.com"] } });
    t.deepEqual([blankTag.status, blankTag.body.error], [400, "Tag name '!!!' must contain a letter or a digit"]);
    const nobody = await s.call("POST", ADD, { body: { tags: ["vip"] } });
    t.deepEqual([nobody.status, nobody.body.error], [400, "Provide at least one contact in emails, externalIds or subscriberIds"]);
    const notAList = await s.call("POST", ADD, { body: { tags: "vip", emails: ["ada@example.com"] } });
    t.is(notAList.status, 422);
    t.deepEqual(
      notAList.body.errors.map((e: { path: string }) => e.path),
      ["tags"],
    );
  });

  test(name("an operation queues its selection page by page (total grows), tags every contact, then completes"), async (t) => {
    const s = await session(t, dialect);
    const other = await session(t, dialect, 1, s.api);
    const ids = await seedContacts(s, SELECTION_PAGE_SIZE + 20);
    await seedContacts(other, 5);

    const started = await s.call("POST", OPERATIONS, { body: { kind: "add_tags", requestKey: "spring-1", tags: ["Spring Sale"], triggerAutomations: false } });
    t.is(started.status, 202);
    t.true(started.body.success);
    const op = started.body.operation;
    t.regex(op.id, /^sop_[0-9A-Z]{26}$/);
    t.deepEqual(op, {
      id: op.id,
      companyId: s.company.companyId,
      kind: "add_tags",
      status: "queued",
      total: 0,
      processed: 0,
      succeeded: 0,
      failed: 0,
      error: null,
      failures: [],
      createdAt: "2026-11-22T10:00:00.000Z",
      completedAt: null,
      expiresAt: null,
    });

    await runOneStep(s.api);
    t.like(await operation(s, op.id), { status: "running", total: SELECTION_PAGE_SIZE, processed: 0 });
    s.api.clock.advance(1_000);
    await runOneStep(s.api);
    t.like(await operation(s, op.id), { status: "running", total: SELECTION_PAGE_SIZE + 20, processed: SELECTION_PAGE_SIZE, succeeded: SELECTION_PAGE_SIZE });
    s.api.clock.advance(1_000);
    await runOneStep(s.api);
    const done = await operation(s, op.id);
    t.deepEqual(done, {
      ...op,
      status: "completed",
      total: SELECTION_PAGE_SIZE + 20,
      processed: SELECTION_PAGE_SIZE + 20,
      succeeded: SELECTION_PAGE_SIZE + 20,
      completedAt: "2026-11-22T10:00:02.000Z",
      expiresAt: new Date(Date.parse("2026-11-22T10:00:02.000Z") + 30 * DAY).toISOString(),
    });
    t.is(await runAllJobs(s.api), 0, "a completed operation enqueues no further step");

    t.is(await taggedCount(s, "spring-sale"), ids.length);
    t.deepEqual(await tagsOf(s, ids[0]!), ["spring-sale"]);
    t.is(await taggedCount(s, "spring-sale", other.company.companyId), 0, "another company's contacts are untouched");

    const listed = await s.call("GET", OPERATIONS);
    t.is(listed.status, 200);
    t.deepEqual(listed.body, { success: true, operations: [done] });

    // Thirty days after it ended, the record is swept away with its items.
    s.api.clock.advance(30 * DAY + 3_600_000);
    await runAllJobs(s.api);
    const expired = await s.call("GET", `${OPERATIONS}/${op.id}`);
    t.deepEqual([expired.status, expired.body], [404, { success: false, error: "Subscriber operation not found" }]);
    t.falsy(await s.knex("subscriber_operation_items").where({ operation_id: op.id }).first());
    t.is(await taggedCount(s, "spring-sale"), ids.length, "the tags stay");
  });

  test(name("the list holds the 20 most recent operations, newest first"), async (t) => {
    const s = await session(t, dialect, 3);
    const started: string[] = [];
    for (let i = 0; i < 21; i++) {
      started.push((await startOperation(s, { requestKey: `op-${i}`, tags: ["x"] })).id);
      s.api.clock.advance(1);
    }
    const listed = await s.call("GET", OPERATIONS);
    t.deepEqual(
      listed.body.operations.map((o: { id: string }) => o.id),
      started.slice(1).reverse(),
    );
  });

  test(name("an operation whose steps keep failing ends as failed after the job's last attempt"), async (t) => {
    const s = await session(t, dialect);
    await seedContacts(s, 3);
    const op = await startOperation(s, { requestKey: "broken", tags: ["broken"] });
    // A stored audience the server cannot evaluate: every step throws.
    const row = await s.knex("subscriber_operations").where({ id: op.id }).first("params");
    const params = typeof row.params === "string" ? JSON.parse(row.params) : row.params;
    const root = { kind: "group", id: "g", joinOperator: "and", children: [{ kind: "filter", id: "f", field: "segment", operator: "is", value: "seg_gone" }] };
    await s
      .knex("subscriber_operations")
      .where({ id: op.id })
      .update({ params: JSON.stringify({ ...params, audience: { ...params.audience, filter: { root, referenced: [] } } }) });
    for (let attempt = 1; attempt <= 10; attempt++) {
      await runAllJobs(s.api);
      if (attempt < 10) t.like(await operation(s, op.id), { status: "queued" }, `attempt ${attempt}: the failed step saved nothing`);
      s.api.clock.advance(3_600_000);
    }
    const failed = await operation(s, op.id);
    t.like(failed, {
      status: "failed",
      error: "The operation stopped after repeated errors; contacts processed before it stopped keep their tags",
      processed: 0,
    });
    t.truthy(failed.completedAt);
    t.truthy(failed.expiresAt);
    const cancel = await s.call("POST", `${OPERATIONS}/${op.id}/cancel`);
    t.deepEqual([cancel.status, cancel.body.error], [400, "Operation is already failed and cannot be cancelled"]);
  });

  test(name("audiences: subscriberIds, listId, activeOnly, search and segment filters select the matching contacts"), async (t) => {
    const s = await session(t, dialect, 3);
    const ada = await saveContact(s, { email: "ada@example.com", tags: ["beta"], lists: ["Newsletter"] });
    const bob = await saveContact(s, { email: "bob@example.com", status: "unsubscribed", lists: ["Newsletter"] });
    const cy = await saveContact(s, { email: "cy@example.com", firstName: "Zed" });
    const dee = await saveContact(s, { email: "dee@example.com", externalId: "crm-42" });
    const list = await s.knex("lists").where({ company_id: s.company.companyId, name: "Newsletter" }).first("id");

    const audiences: Array<[string, Record<string, unknown> | null, string[]]> = [
      ["everyone", null, [ada, bob, cy, dee]],
      ["ids", { subscriberIds: [bob, cy, "sub_unknown"] }, [bob, cy]],
      ["list", { listId: list.id }, [ada, bob]],
      ["active list", { listId: list.id, activeOnly: true }, [ada]],
      ["name search", { search: "zed" }, [cy]],
      ["external id search", { search: "CRM-4" }, [dee]],
      ["full email search", { search: "Ada@Example.com" }, [ada]],
      ["flat filters", { filters: [{ field: "tag", operator: "contains", value: "beta" }] }, [ada]],
      [
        "filters joined by or",
        {
          filters: [
            { field: "tag", operator: "contains", value: "beta" },
            { field: "firstName", operator: "contains", value: "zed" },
          ],
          filterJoinOperator: "or",
        },
        [ada, cy],
      ],
      [
        "nested root and activeOnly",
        {
          root: {
            kind: "group",
            joinOperator: "or",
            children: [
              { field: "email", operator: "contains", value: "bob" },
              { kind: "group", joinOperator: "and", children: [{ field: "list", operator: "is", value: list.id }] },
            ],
          },
          activeOnly: true,
        },
        [ada],
      ],
    ];
    for (const [key, audience, expected] of audiences) {
      const op = await startOperation(s, { requestKey: key, tags: [key], ...(audience ? { audience } : {}) });
      await runAllJobs(s.api);
      const done = await operation(s, op.id);
      t.like(done, { status: "completed", total: expected.length, succeeded: expected.length }, key);
      t.is(await taggedCount(s, normalizeTagName(key)), expected.length, key);
      for (const id of expected) t.true((await tagsOf(s, id)).includes(normalizeTagName(key)), `${key}: ${id}`);
    }

    const refusals: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [
        { subscriberIds: Array.from({ length: 1001 }, (_, i) => `sub_${i}`) },
        400,
        "audience.subscriberIds holds at most 1000 IDs (got 1001); use filters, root or listId for larger audiences",
      ],
      [
        {
          filters: [{ field: "tag", operator: "contains", value: "x" }],
          root: { kind: "group", joinOperator: "and", children: [{ field: "tag", operator: "contains", value: "x" }] },
        },
        400,
        "Provide either filters or root, not both",
      ],
      [{ listId: "list_unknown" }, 404, "List not found"],
      [{ filters: [{ field: "colour", operator: "is", value: "red" }] }, 422, /filters/],
      [{ filters: [{ field: "stripeProduct", operator: "is", value: "prod_1" }] }, 400, /not supported/],
      [{ filters: [{ field: "emailOpened", operator: "is", value: "x" }] }, 400, /value must be a window/],
    ];
    let deep: Record<string, unknown> = { kind: "group", joinOperator: "and", children: [{ field: "tag", operator: "contains", value: "x" }] };
    for (let depth = 1; depth < 9; depth++) deep = { kind: "group", joinOperator: "and", children: [deep] };
    refusals.push([
      { root: deep },
      400,
      "Invalid audience.root.children.0.children.0.children.0.children.0.children.0.children.0.children.0.children.0: filter groups can be nested at most 8 levels deep",
    ]);
    for (const [audience, status, message] of refusals) {
      const refused = await s.call("POST", OPERATIONS, {
        body: { kind: "add_tags", requestKey: `bad-${status}-${JSON.stringify(audience).length}`, tags: ["x"], audience },
      });
      t.is(refused.status, status, JSON.stringify(audience).slice(0, 80));
      if (typeof message === "string") t.is(refused.body.error, message);
      else t.regex(refused.body.error, message);
    }
    const tooManyTags = await s.call("POST", OPERATIONS, {
      body: { kind: "add_tags", requestKey: "tags", tags: Array.from({ length: 26 }, (_, i) => `t${i}`) },
    });
    t.deepEqual([tooManyTags.status, tooManyTags.body.error], [400, "An operation adds at most 25 tags (got 26)"]);
    const noTags = await s.call("POST", OPERATIONS, { body: { kind: "add_tags", requestKey: "none", tags: [] } });
    t.deepEqual([noTags.status, noTags.body.error], [400, "Provide at least one tag in tags"]);
    const otherKind = await s.call("POST", OPERATIONS, { body: { kind: "remove_tags", requestKey: "kind", tags: ["x"] } });
    t.is(otherKind.status, 422);
    const noKey = await s.call("POST", OPERATIONS, { body: { kind: "add_tags", tags: ["x"] } });
    t.is(noKey.status, 422);
    t.deepEqual(
      noKey.body.errors.map((e: { path: string }) => e.path),
      ["requestKey"],
    );
  });

  test(name("cancel: a running operation stops before its next batch; queued ones never start; ended ones refuse with 400"), async (t) => {
    const s = await session(t, dialect);
    await seedContacts(s, SELECTION_PAGE_SIZE + 20);

    const running = await startOperation(s, { requestKey: "big", tags: ["big"] });
    await runOneStep(s.api); // selects the first page
    await runOneStep(s.api); // tags it and selects the rest
    t.like(await operation(s, running.id), { status: "running", processed: SELECTION_PAGE_SIZE, total: SELECTION_PAGE_SIZE + 20 });
    s.api.clock.advance(5_000);
    const cancelled = await s.call("POST", `${OPERATIONS}/${running.id}/cancel`);
    t.is(cancelled.status, 200);
    t.like(cancelled.body, {
      success: true,
      operation: {
        id: running.id,
        status: "cancelled",
        processed: SELECTION_PAGE_SIZE,
        completedAt: "2026-11-22T10:00:05.000Z",
        expiresAt: new Date(Date.parse("2026-11-22T10:00:05.000Z") + 30 * DAY).toISOString(),
      },
    });
    await runAllJobs(s.api);
    t.like(await operation(s, running.id), { status: "cancelled", processed: SELECTION_PAGE_SIZE, succeeded: SELECTION_PAGE_SIZE });
    t.is(await taggedCount(s, "big"), SELECTION_PAGE_SIZE, "contacts already processed keep their tags; the rest are not tagged");

    const queued = await startOperation(s, { requestKey: "small", tags: ["small"] });
    const cancelledQueued = await s.call("POST", `${OPERATIONS}/${queued.id}/cancel`);
    t.like(cancelledQueued.body.operation, { status: "cancelled", total: 0, processed: 0 });
    await runAllJobs(s.api);
    t.like(await operation(s, queued.id), { status: "cancelled", total: 0, processed: 0 });
    t.is(await taggedCount(s, "small"), 0);

    const again = await s.call("POST", `${OPERATIONS}/${queued.id}/cancel`);
    t.deepEqual(again.body, { success: false, error: "Operation is already cancelled and cannot be cancelled" });
    t.is(again.status, 400);
    const finished = await startOperation(s, { requestKey: "finished", tags: ["done"], audience: { search: "bulk1@example.com" } });
    await runAllJobs(s.api);
    const late = await s.call("POST", `${OPERATIONS}/${finished.id}/cancel`);
    t.deepEqual([late.status, late.body.error], [400, "Operation is already completed and cannot be cancelled"]);
  });

  test(name("requestKey makes starting idempotent per company"), async (t) => {
    const s = await session(t, dialect);
    const other = await session(t, dialect, 1, s.api);
    await seedContacts(s, 3);
    const first = await startOperation(s, { requestKey: "launch", tags: ["launch"] });
    const second = await startOperation(s, { requestKey: "launch", tags: ["something-else"], audience: { activeOnly: true } });
    t.deepEqual(second, first, "the same key returns the operation it started");
    await runAllJobs(s.api);
    const afterwards = await startOperation(s, { requestKey: "launch", tags: ["launch"] });
    t.like(afterwards, { id: first.id, status: "completed", total: 3 });
    t.is(await runAllJobs(s.api), 0, "a repeated request for an ended operation runs nothing");
    t.is(await taggedCount(s, "launch"), 3);
    t.is(await taggedCount(s, "something-else"), 0);
    const listed = await s.call("GET", OPERATIONS);
    t.deepEqual(
      listed.body.operations.map((o: { id: string }) => o.id),
      [first.id],
    );

    const theirs = await startOperation(other, { requestKey: "launch", tags: ["launch"] });
    t.not(theirs.id, first.id, "another company's key space is its own");
    t.is(theirs.companyId, other.company.companyId);
  });

  test(name("contacts deleted after selection fail; the record keeps the first 20 failures and counts them all"), async (t) => {
    const s = await session(t, dialect);
    const ids = await seedContacts(s, 30);
    const op = await startOperation(s, { requestKey: "doomed", tags: ["doomed"] });
    await runOneStep(s.api); // selects all 30
    t.like(await operation(s, op.id), { status: "running", total: 30, processed: 0 });
    const deleted = ids.slice(0, 25);
    await s.knex("subscribers").whereIn("id", deleted).delete();
    await runAllJobs(s.api);
    const done = await operation(s, op.id);
    t.like(done, { status: "completed", total: 30, processed: 30, succeeded: 5, failed: 25, error: null });
    t.is(done.failures.length, 20);
    t.deepEqual(
      done.failures,
      deleted.slice(0, 20).map((subscriberId) => ({ subscriberId, error: "Subscriber not found" })),
    );
    t.is(await taggedCount(s, "doomed"), 5);
  });

  test(name("a step whose worker died before settling its job runs again after the lease: nothing is counted twice"), async (t) => {
    const s = await session(t, dialect);
    await seedContacts(s, SELECTION_PAGE_SIZE + 20);
    const op = await startOperation(s, { requestKey: "crash", tags: ["crash"] });
    await runOneStep(s.api);
    await runOneStep(s.api, false); // its changes are saved, but the job stays claimed, as if the worker was killed
    t.like(await operation(s, op.id), { processed: SELECTION_PAGE_SIZE });
    s.api.clock.advance(120_000); // the lease runs out
    await runAllJobs(s.api);
    t.like(await operation(s, op.id), {
      status: "completed",
      total: SELECTION_PAGE_SIZE + 20,
      processed: SELECTION_PAGE_SIZE + 20,
      succeeded: SELECTION_PAGE_SIZE + 20,
      failed: 0,
    });
    t.is(await taggedCount(s, "crash"), SELECTION_PAGE_SIZE + 20);
  });

  test(name("tenancy: another company's operations are 404 and its contacts are never matched"), async (t) => {
    const acme = await session(t, dialect);
    const globex = await session(t, dialect, 1, acme.api);
    const ada = await saveContact(acme, { email: "ada@example.com" });
    const op = await startOperation(acme, { requestKey: "mine", tags: ["mine"] });

    const read = await globex.call("GET", `${OPERATIONS}/${op.id}`);
    t.deepEqual([read.status, read.body], [404, { success: false, error: "Subscriber operation not found" }]);
    const cancel = await globex.call("POST", `${OPERATIONS}/${op.id}/cancel`);
    t.deepEqual([cancel.status, cancel.body.error], [404, "Subscriber operation not found"]);
    t.deepEqual((await globex.call("GET", OPERATIONS)).body, { success: true, operations: [] });
    t.like(await operation(acme, op.id), { status: "queued" }, "the failed cancel left it alone");

    const theirs = await globex.call("POST", ADD, { body: { tags: ["stolen"], emails: ["ada@example.com"], subscriberIds: [ada] } });
    t.like(theirs.body, { matched: 0, updated: 0, notFound: { emails: ["ada@example.com"], externalIds: [], subscriberIds: [ada] } });
    const audience = await startOperation(globex, { requestKey: "ids", tags: ["stolen"], audience: { subscriberIds: [ada] } });
    await runAllJobs(acme.api);
    t.like(await operation(globex, audience.id), { status: "completed", total: 0 });
    t.deepEqual(await tagsOf(acme, ada), ["mine"]);

    const readOnly = await createMemberKeyFixture(acme.api.runtime.container, acme.company.companyId, { role: "admin", scopes: ["subscribers:read"] });
    const forbidden = await acme.api.call("POST", ADD, { key: readOnly.key, body: { tags: ["x"], emails: ["ada@example.com"] } });
    t.deepEqual([forbidden.status, forbidden.body.error], [403, "API key is missing required scope: subscribers:tag"]);
    t.is((await acme.api.call("GET", OPERATIONS, { key: readOnly.key })).status, 200);
  });
}
