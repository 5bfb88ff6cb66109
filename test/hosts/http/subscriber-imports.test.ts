import test, { type ExecutionContext } from "ava";
import { AdvanceImport } from "../../../core/subscriber-imports/advance-import.js";
import { SubscriberRepository } from "../../../core/subscribers/ports.js";
import { SaveContact, type ContactInput } from "../../../core/subscribers/save-contact.js";
import type { DuplicateStrategy } from "../../../core/subscribers/model.js";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";

const NOW = "2026-11-22T10:00:00.000Z";
const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

async function setup(t: ExecutionContext, dialect: Dialect) {
  const api = await apiFixture(t, dialect);
  const { container, knex } = api.runtime;
  const a = await createCompanyFixture(container, { name: "Acme" });
  const b = await createCompanyFixture(container, { name: "Beta" });
  const worker = createWorker(container, { concurrency: 1 }, { push: false });
  const post = (body: unknown, key = a.ownerKey) => api.call("POST", "/api/v1/subscribers/imports", { key, body });
  const get = (id: string, key = a.ownerKey) => api.call("GET", `/api/v1/subscribers/imports/${id}`, { key });
  const save = async (input: ContactInput, strategy: DuplicateStrategy = "skip", companyId = a.companyId) => {
    const saved = await container.get(SaveContact).execute(companyId, input, strategy);
    if (saved._tag === "Left") throw new Error(saved.left.message);
    return saved.right.subscriber;
  };
  const contact = async (email: string, companyId = a.companyId) => {
    const row = await knex("subscribers").where({ company_id: companyId, email }).first();
    if (!row) return null;
    const tags = await knex("subscriber_tags")
      .join("tags", "tags.id", "subscriber_tags.tag_id")
      .where("subscriber_tags.subscriber_id", row.id)
      .orderBy("tags.name")
      .pluck("tags.name");
    const lists = await knex("list_memberships").where({ subscriber_id: row.id }).orderBy("list_id").pluck("list_id");
    return { ...row, custom_attributes: json(row.custom_attributes), tags, lists };
  };
  /** Runs the import's job to the end, as a worker would. */
  const runJobs = () => worker.runDue();
  return { api, a, b, knex, container, post, get, save, contact, runJobs };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: subscriber imports: ${title}`;

  test(name("an import is queued, advanced chunk by chunk and completed with its counts and reasons"), async (t) => {
    const { a, post, get, save, contact, runJobs, container } = await setup(t, dialect);
    const ada = await save({ email: "ada@example.com", firstName: "Ada", externalId: "crm-ada", tags: ["founder"] });
    await save({ email: "bob@example.com", externalId: "crm-bob" });
    const [vips] = (await container.get<SubscriberRepository>(SubscriberRepository).resolveLists(a.companyId, ["VIPs"], new Date(NOW))).ids;

    const rows: Record<string, unknown>[] = Array.from({ length: 1190 }, (_, i) => ({
      email: `User-${i}@Example.com`,
      firstName: `User ${i}`,
      externalId: i % 2 === 0 ? `crm-${i}` : undefined,
      tags: i % 5 === 0 ? ["Pro Customer", "beta"] : [],
      customAttributes: { plan: i % 2 ? "pro" : "free", seats: i, trial: i % 3 === 0, meta: { source: "csv" } },
    }));
    rows.push(
      { email: "ada@example.com", firstName: "Changed" }, // exists: skipped
      { email: "user-1@example.com", firstName: "Again" }, // repeated email: skipped
      { email: "USER-2@example.com" }, // repeated email: skipped
      { email: "not-an-email" },
      { phone: "+15551234567" }, // no email
      { email: "acct@example.com", customAttributes: { account: "acme" } },
      { email: "tag@example.com", tags: ["!!!"] },
      { email: "tz@example.com", timezone: "Mars/Olympus" },
      { email: "bob@example.com", externalId: "crm-ada" }, // email and externalId of two contacts
      { email: "last@example.com", status: "unsubscribed", timezone: "Europe/Paris", createdAt: "2020-01-02T03:04:05.000Z", lastName: "Row" },
    );

    const created = await post({ subscribers: rows, fileName: "contacts.csv", listIds: [vips], optInMode: "default" });
    t.is(created.status, 202);
    t.true(created.body.success);
    t.false(created.body.deduplicated);
    const id = created.body.import.id as string;
    t.regex(id, /^imp_/);
    t.like(created.body.import, {
      status: "queued",
      fileName: "contacts.csv",
      duplicateStrategy: "skip",
      listIds: [vips],
      totalRows: 1200,
      emailCount: 1198,
      duplicateRows: 2,
      processedCount: 0,
      chunkCount: 3,
      processedChunks: 0,
      failedChunks: 0,
      skippedReasons: {},
      failedReasons: {},
      failedChunkReasons: {},
      error: null,
      createdAt: NOW,
      completedAt: null,
    });

    // One step writes one chunk and says so.
    await container.get(AdvanceImport).execute(a.companyId, id);
    const running = await get(id);
    t.is(running.status, 200);
    t.like(running.body.import, { status: "running", processedChunks: 1, processedCount: 500, addedCount: 500, chunkCount: 3 });

    t.true((await runJobs()) >= 2);
    const done = (await get(id)).body.import;
    t.like(done, {
      status: "completed",
      totalRows: 1200,
      processedCount: 1200,
      addedCount: 1191,
      updatedCount: 0,
      skippedCount: 3,
      failedCount: 6,
      processedChunks: 3,
      chunkCount: 3,
      completedAt: NOW,
    });
    t.deepEqual(done.skippedReasons, { already_exists: 1, duplicate_email: 2 });
    t.deepEqual(done.failedReasons, { invalid_email: 1, missing_email: 1, reserved_attribute: 1, invalid_tag: 1, invalid_field: 1, external_id_conflict: 1 });
    t.is(sum(done.skippedReasons), done.skippedCount);
    t.is(sum(done.failedReasons), done.failedCount);
    t.is(done.addedCount + done.updatedCount + done.skippedCount + done.failedCount, done.processedCount);

    const user0 = await contact("user-0@example.com");
    t.like(user0, { first_name: "User 0", external_id: "crm-0", status: "active", sms_status: "not_subscribed" });
    t.is(new Date(user0.created_at).toISOString(), NOW);
    t.deepEqual(user0.custom_attributes, { plan: "free", seats: 0, trial: true, meta: { source: "csv" } });
    t.deepEqual(user0.tags, ["beta", "pro-customer"]);
    t.deepEqual(user0.lists, [vips]);
    t.deepEqual((await contact("user-1@example.com")).first_name, "User 1", "the first row of a repeated email wins");
    const last = await contact("last@example.com");
    t.like(last, { status: "unsubscribed", timezone: "Europe/Paris", last_name: "Row" });
    t.is(new Date(last.created_at).toISOString(), "2020-01-02T03:04:05.000Z");
    const adaAfter = await contact("ada@example.com");
    t.like(adaAfter, { id: ada.id, first_name: "Ada" });
    t.deepEqual(adaAfter.tags, ["founder"], "skip leaves an existing contact alone");
    t.deepEqual(adaAfter.lists, []);
    for (const email of ["not-an-email", "acct@example.com", "tag@example.com", "tz@example.com"]) t.is(await contact(email), null);
    t.is(await runJobs(), 0, "nothing is left to do");
  });

  test(name("merge and overwrite follow the rules of a single create; nothing reactivates an unsubscribed contact"), async (t) => {
    const { post, get, save, contact, runJobs } = await setup(t, dialect);
    await save({ email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", customAttributes: { plan: "free", seats: 1 }, tags: ["founder"] });
    await save({ email: "gone@example.com", firstName: "Gone", status: "unsubscribed" });

    const merged = await post({
      duplicateStrategy: "merge",
      subscribers: [
        { email: "ada@example.com", lastName: "King", customAttributes: { plan: "pro" }, tags: ["vip"] },
        { email: "gone@example.com", status: "active", firstName: "Back" },
        { email: "new@example.com", externalId: "crm-new" },
        // Matches the contact the previous row created, by externalId: merged into it.
        { email: "other@example.com", externalId: "crm-new", firstName: "Newton" },
      ],
    });
    t.is(merged.status, 202);
    await runJobs();
    t.like((await get(merged.body.import.id)).body.import, { status: "completed", addedCount: 1, updatedCount: 3, skippedCount: 0, failedCount: 0 });
    const ada = await contact("ada@example.com");
    t.like(ada, { first_name: "Ada", last_name: "King" });
    t.deepEqual(ada.custom_attributes, { plan: "pro", seats: 1 });
    t.deepEqual(ada.tags, ["founder", "vip"]);
    t.like(await contact("gone@example.com"), { status: "unsubscribed", first_name: "Back" });
    t.like(await contact("new@example.com"), { external_id: "crm-new", first_name: "Newton" });
    t.is(await contact("other@example.com"), null);

    const overwritten = await post({
      duplicateStrategy: "overwrite",
      subscribers: [{ email: "ada@example.com", firstName: "Augusta", tags: ["Math"], customAttributes: { born: 1815 } }],
    });
    await runJobs();
    t.like((await get(overwritten.body.import.id)).body.import, { status: "completed", updatedCount: 1 });
    const replaced = await contact("ada@example.com");
    t.like(replaced, { first_name: "Augusta", last_name: null });
    t.deepEqual(replaced.custom_attributes, { born: 1815 });
    t.deepEqual(replaced.tags, ["math"]);
  });

  test(name("the same idempotencyKey returns the first import, per company"), async (t) => {
    const { a, b, post, get, runJobs, knex } = await setup(t, dialect);
    const body = { idempotencyKey: "upload-42", subscribers: [{ email: "ada@example.com" }] };
    const first = await post(body);
    t.is(first.status, 202);
    t.false(first.body.deduplicated);
    const again = await post({ ...body, subscribers: [{ email: "other@example.com" }, { email: "more@example.com" }] });
    t.is(again.status, 202);
    t.true(again.body.deduplicated);
    t.deepEqual(again.body.import, first.body.import);
    const elsewhere = await post(body, b.ownerKey);
    t.false(elsewhere.body.deduplicated);
    t.not(elsewhere.body.import.id, first.body.import.id);

    await runJobs();
    const later = await post(body);
    t.true(later.body.deduplicated);
    t.like(later.body.import, { id: first.body.import.id, status: "completed", addedCount: 1 });
    t.like((await get(first.body.import.id)).body.import, { totalRows: 1 });
    t.is(
      await knex("subscribers")
        .where({ company_id: a.companyId })
        .count("* as n")
        .first()
        .then((row) => Number(row!.n)),
      1,
    );
  });

  test(name("another company's import is not found"), async (t) => {
    const { b, post, get } = await setup(t, dialect);
    const created = await post({ subscribers: [{ email: "ada@example.com" }] });
    const missing = await get(created.body.import.id, b.ownerKey);
    t.is(missing.status, 404);
    t.deepEqual(missing.body, { success: false, error: "Import not found" });
    t.is((await get("imp_01HZZZZZZZZZZZZZZZZZZZZZZZ")).status, 404);
  });

  test(name("requests are checked: row count, types, lists and scope"), async (t) => {
    const { api, a, post } = await setup(t, dialect);
    const tooMany = await post({
      subscribers: Array.from({ length: 5001 }, (_, i) => ({ email: `u${i}@example.com`, firstName: "A rather long first name" })),
    });
    t.is(tooMany.status, 400);
    t.deepEqual(tooMany.body, {
      success: false,
      error: "An import takes at most 5000 subscribers per request (got 5001); split larger files into several imports",
    });
    const none = await post({ subscribers: [] });
    t.is(none.status, 400);
    t.is(none.body.error, "Provide at least one subscriber in subscribers");

    const notArray = await post({ subscribers: { email: "a@example.com" } });
    t.is(notArray.status, 422);
    const notObject = await post({ subscribers: [{ email: "a@example.com" }, "b@example.com"] });
    t.is(notObject.status, 422);
    t.deepEqual(notObject.body.errors, [{ path: "subscribers.1", message: "must be an object" }]);
    const badStrategy = await post({ subscribers: [{ email: "a@example.com" }], duplicateStrategy: "replace" });
    t.is(badStrategy.status, 422);
    t.is(badStrategy.body.errors[0].path, "duplicateStrategy");

    const unknownList = await post({ subscribers: [{ email: "a@example.com" }], listIds: ["list_01HZZZZZZZZZZZZZZZZZZZZZZZ"] });
    t.is(unknownList.status, 404);
    t.deepEqual(unknownList.body, { success: false, error: "List not found: list_01HZZZZZZZZZZZZZZZZZZZZZZZ" });

    const reader = await createMemberKeyFixture(api.runtime.container, a.companyId, { scopes: ["subscribers:read"] });
    t.is((await post({ subscribers: [{ email: "a@example.com" }] }, reader.key)).status, 403);
  });

  test(name("a chunk that cannot be written fails its rows after the last attempt; the other chunks are imported"), async (t) => {
    const { api, post, get, runJobs, knex } = await setup(t, dialect);
    const created = await post({ subscribers: Array.from({ length: 700 }, (_, i) => ({ email: `u${i}@example.com` })) });
    const id = created.body.import.id as string;
    // The second chunk's stored rows are damaged: reading them fails every time.
    await knex("subscriber_import_chunks")
      .where({ import_id: id, chunk: 1 })
      .update({ rows: JSON.stringify({ broken: true }) });

    for (let round = 0; round < 8; round++) {
      await runJobs();
      api.clock.advance(20_000);
    }
    const done = (await get(id)).body.import;
    t.like(done, { status: "completed", totalRows: 700, processedCount: 700, addedCount: 500, failedCount: 200, processedChunks: 2, failedChunks: 1 });
    t.deepEqual(done.failedReasons, { chunk_failed: 200 });
    t.is(sum(done.failedChunkReasons), 1);
    t.regex(Object.keys(done.failedChunkReasons)[0]!, /^Unreadable subscriber_import_chunks row/);
  });
}
