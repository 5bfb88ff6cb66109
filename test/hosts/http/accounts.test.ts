import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { KnexAccountSuggestionRepository } from "../../../adapters/knex/repositories/account-repository.js";
import { RecordCustomEvent } from "../../../core/events/record-custom-event.js";
import { SaveContact } from "../../../core/subscribers/save-contact.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  readonly knex: Knex;
  /** Calls with the company's keys in turn, so long tests stay inside each key's 20 requests a second. */
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
  /** A contact made the way every contact write makes one. */
  contact(email: string, customAttributes?: Record<string, unknown>): Promise<string>;
  /** A custom event of a contact, recorded the way the events API records one. */
  event(subscriberId: string, email: string, name: string, properties: Record<string, unknown>, occurredAt: Date): Promise<void>;
  /** Runs every job due now, as the worker does. */
  runJobs(): Promise<number>;
}

async function session(t: ExecutionContext, dialect: Dialect, keys = 2, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const { container } = fixture.runtime;
  const company = await createCompanyFixture(container);
  const ring = [company.ownerKey];
  for (let i = 1; i < keys; i++) ring.push((await createMemberKeyFixture(container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
  let next = 0;
  const worker = createWorker(container, { concurrency: 2 }, { push: false });
  return {
    api: fixture,
    company,
    knex: fixture.runtime.knex,
    call: (method, path, options = {}) => fixture.call(method, path, { ...options, key: ring[next++ % ring.length]! }),
    async contact(email, customAttributes) {
      const saved = await container
        .get(SaveContact)
        .execute(company.companyId, { email, ...(customAttributes ? { customAttributes: customAttributes as never } : {}) }, "merge");
      if (saved._tag === "Left") throw new Error(saved.left.message);
      return saved.right.subscriber.id;
    },
    async event(subscriberId, email, name, properties, occurredAt) {
      await container
        .get(RecordCustomEvent)
        .execute({ companyId: company.companyId, id: subscriberId, email }, { name, properties, occurredAt, eventId: null, source: "api" });
    },
    runJobs: () => worker.runDue(),
  };
}

async function ok(response: Promise<JsonResponse>, status = 200): Promise<any> {
  const settled = await response;
  if (settled.status !== status) throw new Error(`expected ${status}, got ${settled.status}: ${JSON.stringify(settled.body)}`);
  return settled.body;
}

const enc = encodeURIComponent;

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: accounts: ${title}`;

  test(name("an account is created, updated by upsert, and shows its members with their roles"), async (t) => {
    const s = await session(t, dialect);
    const created = await ok(
      s.call("POST", "/api/v1/accounts", { body: { externalId: " org/1 ", name: "Acme", domain: "@ACME.com", attributes: { plan: "pro", seats: 5 } } }),
    );
    t.like(created, {
      success: true,
      created: true,
      account: { externalId: "org/1", name: "Acme", domain: "acme.com", attributes: { plan: "pro", seats: 5 }, memberCount: 0 },
    });
    t.regex(created.account.id, /^acct_/);

    const updated = await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org/1", domain: null, attributes: { seats: 7, region: "eu" } } }));
    t.like(updated, { created: false, account: { id: created.account.id, name: "Acme", domain: null, attributes: { plan: "pro", seats: 7, region: "eu" } } });

    const ada = await s.contact("ada@acme.com");
    const byEmail = await ok(s.call("POST", `/api/v1/accounts/${enc("org/1")}/members`, { body: { email: "Ada@Acme.com", role: "admin" } }));
    t.like(byEmail, { success: true, added: true, member: { subscriberId: ada, email: "ada@acme.com", role: "admin" } });
    // An unknown email becomes a contact.
    const newcomer = await ok(s.call("POST", `/api/v1/accounts/${enc("org/1")}/members`, { body: { email: "new@acme.com" } }));
    t.like(newcomer, { added: true, member: { email: "new@acme.com", role: "member" } });
    t.truthy(await s.knex("subscribers").where({ company_id: s.company.companyId, email: "new@acme.com" }).first());
    const bob = await s.contact("bob@acme.com");
    t.like(await ok(s.call("POST", `/api/v1/accounts/${enc("org/1")}/members`, { body: { subscriberId: bob, role: "owner" } })), {
      member: { subscriberId: bob, role: "owner" },
    });
    // Without a role an existing member keeps its role; with one it changes.
    t.like(await ok(s.call("POST", `/api/v1/accounts/${enc("org/1")}/members`, { body: { subscriberId: ada } })), { added: false, member: { role: "admin" } });
    t.like(await ok(s.call("POST", `/api/v1/accounts/${enc("org/1")}/members`, { body: { email: "new@acme.com", role: "admin" } })), {
      added: false,
      member: { role: "admin" },
    });

    const shown = await ok(s.call("GET", `/api/v1/accounts/${enc("org/1")}`));
    t.is(shown.account.memberCount, 3);
    t.deepEqual(
      shown.members.map((m: any) => [m.email, m.role]),
      [
        ["bob@acme.com", "owner"],
        ["ada@acme.com", "admin"],
        ["new@acme.com", "admin"],
      ],
    );
    t.deepEqual(Object.keys(shown.members[0]).sort(), ["email", "firstName", "joinedAt", "lastName", "role", "subscriberId"]);
  });

  test(name("account routes refuse what the spec refuses"), async (t) => {
    const s = await session(t, dialect);
    await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org-1" } }));
    t.like(await s.call("GET", "/api/v1/accounts/missing"), { status: 404, body: { success: false, error: "Account not found" } });
    t.like(await s.call("POST", "/api/v1/accounts/missing/members", { body: { email: "a@b.co" } }), { status: 404, body: { error: "Account not found" } });
    t.like(await s.call("POST", "/api/v1/accounts/missing/events", { body: { event: "x" } }), { status: 404, body: { error: "Account not found" } });
    t.like(await s.call("POST", "/api/v1/accounts", { body: { name: "No ID" } }), { status: 422 });
    t.like(await s.call("POST", "/api/v1/accounts", { body: { externalId: "   " } }), { status: 422 });
    t.like(await s.call("POST", "/api/v1/accounts", { body: { externalId: "x", attributes: [1] } }), { status: 422 });
    t.like(await s.call("POST", "/api/v1/accounts/org-1/members", { body: { role: "owner" } }), {
      status: 400,
      body: { error: "email or subscriberId is required" },
    });
    t.like(await s.call("POST", "/api/v1/accounts/org-1/members", { body: { email: "a@b.co", role: "boss" } }), { status: 422 });
    t.like(await s.call("POST", "/api/v1/accounts/org-1/members", { body: { subscriberId: "sub_nope" } }), {
      status: 404,
      body: { error: "Subscriber not found" },
    });
    t.like(await s.call("POST", "/api/v1/accounts/org-1/events", { body: {} }), { status: 422 });
    t.like(await s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "x", properties: "no" } }), { status: 422 });

    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, { role: "owner", scopes: ["accounts:read"] });
    t.like(await s.api.call("GET", "/api/v1/accounts/org-1", { key: reader.key }), { status: 200 });
    t.like(await s.api.call("POST", "/api/v1/accounts", { key: reader.key, body: { externalId: "x" } }), {
      status: 403,
      body: { error: "API key is missing required scope: accounts:write" },
    });
    t.like(await s.api.call("POST", "/api/v1/account-suggestions/organization-ids", { key: reader.key, body: { propertyKey: "orgId" } }), {
      status: 403,
      body: { error: "API key is missing required scope: subscribers:write" },
    });
  });

  test(name("another company's key gets 404 for the account, its members, its events and a suggestion run"), async (t) => {
    const a = await session(t, dialect, 1);
    const b = await session(t, dialect, 1, a.api);
    await ok(a.call("POST", "/api/v1/accounts", { body: { externalId: "org-1", name: "A's" } }));
    const started = await ok(a.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId" } }), 202);

    t.like(await b.call("GET", "/api/v1/accounts/org-1"), { status: 404, body: { error: "Account not found" } });
    t.like(await b.call("POST", "/api/v1/accounts/org-1/members", { body: { email: "x@y.co" } }), { status: 404 });
    t.like(await b.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "x" } }), { status: 404 });
    t.like(await b.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${started.jobId}`), {
      status: 404,
      body: { error: "Suggestion job not found" },
    });
    // B's upsert of the same externalId is B's own account.
    t.like(await ok(b.call("POST", "/api/v1/accounts", { body: { externalId: "org-1" } })), { created: true, account: { name: null } });
    t.like(await ok(a.call("GET", "/api/v1/accounts/org-1")), { account: { name: "A's" } });
    // B's run of the same key is not A's.
    t.like(await ok(b.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId" } }), 202), { alreadyRunning: false });
  });

  test(
    name("organization IDs from contact attributes: names from nameKey or the work domain; existing accounts keep names and roles; reruns change nothing"),
    async (t) => {
      const s = await session(t, dialect);
      const ada = await s.contact("ada@alpha.com", { orgId: "org-a", companyName: "Alpha" });
      const ben = await s.contact("ben@alpha.com", { orgId: "org-a" });
      const cat = await s.contact("cat@beta.com", { orgId: "org-b", companyName: "Beta" });
      const dee = await s.contact("dee@gmail.com", { orgId: " org-b " });
      const gus = await s.contact("gus@gamma.com", { orgId: "org-c" });
      await s.contact("eli@x.com", { orgId: true });
      await s.contact("fay@x.com", { orgId: "" });
      await s.contact("hal@x.com", { companyName: "No org" });
      const ivy = await s.contact("ivy@delta.com");
      await s.event(ivy, "ivy@delta.com", "signed_in", { orgId: "org-from-event" }, daysAgo(1));
      await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org-a", name: "Original A" } }));
      await ok(s.call("POST", "/api/v1/accounts/org-a/members", { body: { subscriberId: ada, role: "owner" } }));
      t.like(await s.knex("companies").where({ id: s.company.companyId }).first("accounts_enabled"), {
        accounts_enabled: dialect.name === "sqlite" ? 0 : false,
      });

      const started = await ok(
        s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: " orgId ", source: "attribute", nameKey: "companyName" } }),
        202,
      );
      t.regex(started.jobId, /^acsj_/);
      t.deepEqual(started, {
        success: true,
        jobId: started.jobId,
        alreadyRunning: false,
        job: {
          jobId: started.jobId,
          state: "queued",
          settings: { source: "attribute", propertyKey: "orgId", nameKey: "companyName" },
          result: null,
          error: null,
        },
      });
      t.is(await s.runJobs(), 1);

      const done = await ok(s.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${started.jobId}`));
      t.deepEqual(done.job, {
        jobId: started.jobId,
        state: "completed",
        settings: { source: "attribute", propertyKey: "orgId", nameKey: "companyName" },
        result: { organizationIds: 3, accountsCreated: 2, accountsExisting: 1, membersAdded: 4, contactsSeen: 5, valuesSkipped: 0 },
        error: null,
      });
      t.like(await s.knex("companies").where({ id: s.company.companyId }).first("accounts_enabled"), {
        accounts_enabled: dialect.name === "sqlite" ? 1 : true,
      });

      const a = await ok(s.call("GET", "/api/v1/accounts/org-a"));
      t.like(a.account, { name: "Original A", domain: null, memberCount: 2 });
      t.deepEqual(
        a.members.map((m: any) => [m.subscriberId, m.role]),
        [
          [ada, "owner"],
          [ben, "member"],
        ],
      );
      const b = await ok(s.call("GET", "/api/v1/accounts/org-b"));
      t.like(b.account, { name: "Beta", domain: "beta.com", memberCount: 2 });
      t.deepEqual(b.members.map((m: any) => m.subscriberId).sort(), [cat, dee].sort());
      t.like((await ok(s.call("GET", "/api/v1/accounts/org-c"))).account, { name: "gamma.com", domain: "gamma.com", memberCount: 1 });
      t.is((await ok(s.call("GET", "/api/v1/accounts/org-c"))).members[0].subscriberId, gus);
      t.is((await s.call("GET", "/api/v1/accounts/org-from-event")).status, 404, "attribute runs do not read events");
      t.is((await s.call("GET", "/api/v1/accounts/true")).status, 404, "booleans are no organization IDs");
      t.is(
        await s
          .knex("custom_events")
          .where({ company_id: s.company.companyId })
          .count({ n: "*" })
          .first()
          .then((r: any) => Number(r.n)),
        1,
        "nothing was published as an event",
      );

      // A rerun finds everything in place.
      const again = await ok(
        s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId", source: "attribute", nameKey: "companyName" } }),
        202,
      );
      t.not(again.jobId, started.jobId);
      t.false(again.alreadyRunning);
      await s.runJobs();
      t.like((await ok(s.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${again.jobId}`))).job, {
        state: "completed",
        result: { organizationIds: 3, accountsCreated: 0, accountsExisting: 3, membersAdded: 0 },
      });
      t.is(Number((await s.knex("accounts").where({ company_id: s.company.companyId }).count({ n: "*" }).first())!.n), 3);
    },
  );

  test(name("organization IDs from the events of the last 180 days, named after the work domain most of their contacts share"), async (t) => {
    const s = await session(t, dialect);
    const people: Record<string, string> = {};
    for (const email of ["ada@acme.com", "bob@acme.com", "cy@gmail.com", "dan@other.io", "eve@beta.io", "fay@gmail.com", "gil@old.com"])
      people[email] = await s.contact(email);
    const event = (email: string, properties: Record<string, unknown>, days: number) => s.event(people[email]!, email, "app_used", properties, daysAgo(days));
    await event("ada@acme.com", { orgId: "org-1" }, 10);
    await event("ada@acme.com", { orgId: "org-1" }, 2);
    await event("bob@acme.com", { orgId: "org-1" }, 5);
    await event("cy@gmail.com", { orgId: "org-1" }, 5);
    await event("dan@other.io", { orgId: "org-1" }, 179);
    await event("eve@beta.io", { orgId: 42 }, 1);
    await event("fay@gmail.com", { orgId: "org-consumer" }, 1);
    await event("gil@old.com", { orgId: "org-old" }, 181);
    await event("gil@old.com", { other: "org-2" }, 1);

    const started = await ok(s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId" } }), 202);
    t.deepEqual(started.job.settings, { source: "event", propertyKey: "orgId", nameKey: null });
    await s.runJobs();
    t.like((await ok(s.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${started.jobId}`))).job, {
      state: "completed",
      result: { organizationIds: 3, accountsCreated: 3, accountsExisting: 0, membersAdded: 6, contactsSeen: 6 },
    });
    const org1 = await ok(s.call("GET", "/api/v1/accounts/org-1"));
    t.like(org1.account, { name: "acme.com", domain: "acme.com", memberCount: 4 });
    t.true(org1.members.every((m: any) => m.role === "member"));
    t.like((await ok(s.call("GET", "/api/v1/accounts/42"))).account, { name: "beta.io", domain: "beta.io", memberCount: 1 });
    t.like((await ok(s.call("GET", "/api/v1/accounts/org-consumer"))).account, { name: null, domain: null, memberCount: 1 });
    t.is((await s.call("GET", "/api/v1/accounts/org-old")).status, 404, "events over 180 days old are not read");
  });

  test(name("nameKey on events takes the most recent name"), async (t) => {
    const s = await session(t, dialect);
    const ada = await s.contact("ada@acme.com");
    await s.event(ada, "ada@acme.com", "app_used", { orgId: "org-1", orgName: "Acme Old" }, daysAgo(20));
    await s.event(ada, "ada@acme.com", "app_used", { orgId: "org-1", orgName: "Acme Inc" }, daysAgo(3));
    await s.event(ada, "ada@acme.com", "app_used", { orgId: "org-1" }, daysAgo(1));
    await s.event(ada, "ada@acme.com", "app_used", { orgId: "org-2", orgName: "Ancient" }, daysAgo(300));
    const started = await ok(
      s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId", source: "event", nameKey: "orgName" } }),
      202,
    );
    await s.runJobs();
    t.like((await ok(s.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${started.jobId}`))).job, {
      state: "completed",
      result: { organizationIds: 1 },
    });
    t.like((await ok(s.call("GET", "/api/v1/accounts/org-1"))).account, { name: "Acme Inc", domain: "acme.com" });
  });

  test(name("one run per key at a time: the running run comes back with its own settings"), async (t) => {
    const s = await session(t, dialect);
    const first = await ok(
      s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId", source: "attribute", nameKey: "orgName" } }),
      202,
    );
    const second = await ok(s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: " orgId", nameKey: null } }), 202);
    t.deepEqual(second, {
      success: true,
      jobId: first.jobId,
      alreadyRunning: true,
      job: { jobId: first.jobId, state: "queued", settings: { source: "attribute", propertyKey: "orgId", nameKey: "orgName" }, result: null, error: null },
    });
    // Concurrent starts of another key agree on one run.
    const racing = await Promise.all(
      [0, 1, 2, 3].map(() => ok(s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "teamId" } }), 202)),
    );
    t.is(racing.filter((r) => !r.alreadyRunning).length, 1);
    t.is(new Set(racing.map((r) => r.jobId)).size, 1);
    t.not(racing[0].jobId, first.jobId);

    t.is(await s.runJobs(), 2);
    const after = await ok(s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId" } }), 202);
    t.false(after.alreadyRunning);
    t.not(after.jobId, first.jobId);
    t.deepEqual(after.job.settings, { source: "event", propertyKey: "orgId", nameKey: null });
  });

  test(name("a run that keeps failing is retried, then marked failed, and frees its key"), async (t) => {
    const s = await session(t, dialect);
    await s.contact("ada@acme.com", { orgId: "org-1" });
    const suggestions = s.api.runtime.container.get(KnexAccountSuggestionRepository);
    const sightings = suggestions.sightings;
    let failures = 0;
    suggestions.sightings = async (...args) => {
      failures += 1;
      if (failures <= 3) throw new Error("the database went away");
      return sightings.apply(suggestions, args);
    };
    const started = await ok(s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId", source: "attribute" } }), 202);
    t.is(await s.runJobs(), 1);
    t.like((await ok(s.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${started.jobId}`))).job, { state: "running", error: null });
    t.like(await ok(s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId" } }), 202), {
      jobId: started.jobId,
      alreadyRunning: true,
    });
    for (let attempt = 2; attempt <= 3; attempt++) {
      s.api.clock.advance(10_000);
      t.is(await s.runJobs(), 1);
    }
    t.like((await ok(s.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${started.jobId}`))).job, {
      state: "failed",
      result: null,
      error: "The suggestion run failed; start it again",
    });
    const next = await ok(s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId", source: "attribute" } }), 202);
    t.false(next.alreadyRunning);
    await s.runJobs();
    t.like((await ok(s.call("GET", `/api/v1/account-suggestions/organization-ids/jobs/${next.jobId}`))).job, {
      state: "completed",
      result: { accountsCreated: 1 },
    });
  });

  test(name("suggestion requests are validated: blank key 400, bad source 422, account.* attributes 409, unknown run 404"), async (t) => {
    const s = await session(t, dialect);
    t.like(await s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "   " } }), {
      status: 400,
      body: { success: false, error: "propertyKey must not be blank" },
    });
    t.like(await s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: {} }), { status: 422 });
    t.like(await s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: 7 } }), { status: 422 });
    t.like(await s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId", source: "import" } }), {
      status: 422,
      body: { errors: [{ path: "source", message: "must be one of: event, attribute" }] },
    });
    t.like(await s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId", nameKey: 3 } }), { status: 422 });
    t.like(await s.call("GET", "/api/v1/account-suggestions/organization-ids/jobs/acsj_missing"), { status: 404, body: { error: "Suggestion job not found" } });

    await s.contact("ada@acme.com", { "account.plan": "pro", accountable: true });
    await s.contact("bob@acme.com", { "account.id": "a-1" });
    const refused = await s.call("POST", "/api/v1/account-suggestions/organization-ids", { body: { propertyKey: "orgId" } });
    t.is(refused.status, 409);
    t.false(refused.body.success);
    t.regex(refused.body.error, /^Contacts already use custom attributes beginning with 'account\.' \(account\.id, account\.plan\)/);
    t.is(Number((await s.knex("account_suggestion_jobs").count({ n: "*" }).first())!.n), 0);
  });

  test(name("account events reach owners (else admins), admins, everyone or no one, carrying the account"), async (t) => {
    const s = await session(t, dialect);
    await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org-1", name: "Acme", attributes: { plan: "pro", name: "shadowed" } } }));
    await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org-2", name: "Beta" } }));
    const add = (account: string, email: string, role: string) => ok(s.call("POST", `/api/v1/accounts/${account}/members`, { body: { email, role } }));
    const owner = (await add("org-1", "owner@acme.com", "owner")).member.subscriberId;
    const admin = (await add("org-1", "admin@acme.com", "admin")).member.subscriberId;
    const member = (await add("org-1", "member@acme.com", "member")).member.subscriberId;
    const betaAdmin = (await add("org-2", "admin@beta.com", "admin")).member.subscriberId;
    await add("org-2", "member@beta.com", "member");

    const sent = await ok(s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "invoice_paid", properties: { amount: 120 } } }));
    t.regex(sent.event.id, /^aevt_/);
    t.deepEqual(sent, {
      success: true,
      account: { id: sent.account.id, externalId: "org-1", name: "Acme", memberCount: 3 },
      event: { id: sent.event.id, name: "invoice_paid", time: NOW.toISOString() },
      recipients: "owners",
      recipientCount: 1,
      truncated: false,
      duplicate: false,
      deliveries: [{ subscriberId: owner, email: "owner@acme.com", role: "owner", success: true, automationsTriggered: [] }],
    });
    const stored = await s.knex("custom_events").where({ subscriber_id: owner, name: "invoice_paid" });
    t.is(stored.length, 1);
    t.is(stored[0].source, "account");
    t.deepEqual(typeof stored[0].properties === "string" ? JSON.parse(stored[0].properties) : stored[0].properties, {
      amount: 120,
      account: { plan: "pro", name: "Acme", externalId: "org-1", role: "owner" },
    });
    const timeline = await s.knex("account_events").where({ account_id: sent.account.id });
    t.is(timeline.length, 1);
    t.like(timeline[0], { name: "invoice_paid", recipients: "owners" });

    const admins = await ok(s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "renewal_due", recipients: "admins" } }));
    t.deepEqual(
      admins.deliveries.map((d: any) => [d.subscriberId, d.role]),
      [
        [owner, "owner"],
        [admin, "admin"],
      ],
    );
    const all = await ok(s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "outage", recipients: "all" } }));
    t.deepEqual(
      all.deliveries.map((d: any) => d.subscriberId),
      [owner, admin, member],
    );
    t.is(all.recipientCount, 3);
    const none = await ok(s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "note", recipients: "none" } }));
    t.like(none, { recipients: "none", recipientCount: 0, deliveries: [] });
    t.is((await s.knex("custom_events").where({ name: "note" })).length, 0);
    t.is((await s.knex("account_events").where({ account_id: sent.account.id })).length, 4, "every event is on the timeline");

    const fallback = await ok(s.call("POST", "/api/v1/accounts/org-2/events", { body: { event: "invoice_paid", occurredAt: "2026-11-20T08:00:00Z" } }));
    t.like(fallback, { recipients: "owners", recipientCount: 1, event: { time: "2026-11-20T08:00:00.000Z" } });
    t.deepEqual(
      fallback.deliveries.map((d: any) => [d.subscriberId, d.role]),
      [[betaAdmin, "admin"]],
    );
    const history = await s.knex("custom_events").where({ subscriber_id: betaAdmin });
    t.like(history[0], { historical: dialect.name === "sqlite" ? 1 : true });

    t.like(await s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "x", recipients: "everyone" } }), {
      status: 400,
      body: { success: false, error: "Invalid recipients: must be one of owners, admins, all, none" },
    });
    t.like(await s.call("POST", "/api/v1/accounts/org-1/events", { body: { event: "x", recipients: 3 } }), { status: 400 });
  });

  test(name("a retry with the eventId reuses the original event, skips completed deliveries, resumes failed ones and skips deleted contacts"), async (t) => {
    const s = await session(t, dialect);
    await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org-1", name: "Acme" } }));
    const ids: Record<string, string> = {};
    for (const [email, role] of [
      ["a@acme.com", "owner"],
      ["b@acme.com", "admin"],
      ["c@acme.com", "member"],
      ["d@acme.com", "member"],
    ] as const) {
      ids[email] = (await ok(s.call("POST", "/api/v1/accounts/org-1/members", { body: { email, role } }))).member.subscriberId;
    }

    // b's and d's deliveries fail outright; c's fails after its contact event was stored (a crash in between).
    const recorder = s.api.runtime.container.get(RecordCustomEvent);
    const original = recorder.execute;
    let breaking = true;
    recorder.execute = async (contact, input) => {
      if (breaking && (contact.id === ids["b@acme.com"] || contact.id === ids["d@acme.com"])) throw new Error("storage refused the event");
      const recorded = await original(contact, input);
      if (breaking && contact.id === ids["c@acme.com"]) throw new Error("lost the connection after writing");
      return recorded;
    };

    const body = { event: "plan_changed", properties: { plan: "team" }, recipients: "all", eventId: "change-1", occurredAt: "2026-11-22T09:30:00Z" };
    const first = await s.call("POST", "/api/v1/accounts/org-1/events", { body });
    t.is(first.status, 500);
    t.deepEqual(first.body, {
      success: false,
      error: "3 of 4 deliveries failed; retry with the same eventId to resume them",
      recipientCount: 4,
      deliveries: [
        { subscriberId: ids["a@acme.com"], email: "a@acme.com", role: "owner", success: true, automationsTriggered: [] },
        {
          subscriberId: ids["b@acme.com"],
          email: "b@acme.com",
          role: "admin",
          success: false,
          automationsTriggered: [],
          error: "The event could not be recorded for this contact",
        },
        {
          subscriberId: ids["c@acme.com"],
          email: "c@acme.com",
          role: "member",
          success: false,
          automationsTriggered: [],
          error: "The event could not be recorded for this contact",
        },
        {
          subscriberId: ids["d@acme.com"],
          email: "d@acme.com",
          role: "member",
          success: false,
          automationsTriggered: [],
          error: "The event could not be recorded for this contact",
        },
      ],
    });
    const statuses = async () =>
      Object.fromEntries((await s.knex("account_event_deliveries").select("email", "status")).map((row: any) => [row.email, row.status]));
    t.deepEqual(await statuses(), { "a@acme.com": "completed", "b@acme.com": "failed", "c@acme.com": "failed", "d@acme.com": "failed" });
    t.is((await s.knex("custom_events").where({ name: "plan_changed" })).length, 2, "a's event and c's, stored before its failure");

    // Meanwhile: d is deleted, a newcomer joins, and the retry asks for something else.
    breaking = false;
    await s.knex("subscribers").where({ id: ids["d@acme.com"] }).delete();
    await ok(s.call("POST", "/api/v1/accounts/org-1/members", { body: { email: "late@acme.com", role: "owner" } }));
    s.api.clock.advance(60_000);
    const retry = await ok(
      s.call("POST", "/api/v1/accounts/org-1/events", {
        body: { event: "plan_changed", properties: { plan: "other" }, recipients: "owners", eventId: "change-1" },
      }),
    );
    t.like(retry, {
      duplicate: true,
      recipients: "all",
      recipientCount: 4,
      truncated: false,
      event: { name: "plan_changed", time: "2026-11-22T09:30:00.000Z" },
    });
    t.deepEqual(retry.deliveries, [
      { subscriberId: ids["a@acme.com"], email: "a@acme.com", role: "owner", success: true, automationsTriggered: [] },
      { subscriberId: ids["b@acme.com"], email: "b@acme.com", role: "admin", success: true, automationsTriggered: [] },
      { subscriberId: ids["c@acme.com"], email: "c@acme.com", role: "member", success: true, automationsTriggered: [] },
      { subscriberId: ids["d@acme.com"], email: "d@acme.com", role: "member", success: false, automationsTriggered: [], skipped: "contact_deleted" },
    ]);
    t.deepEqual(await statuses(), { "a@acme.com": "completed", "b@acme.com": "completed", "c@acme.com": "completed", "d@acme.com": "skipped" });
    // One contact event per recipient, with the original properties and time.
    const events = await s.knex("custom_events").where({ company_id: s.company.companyId, name: "plan_changed" }).orderBy("subscriber_id");
    t.deepEqual(events.map((e: any) => e.subscriber_id).sort(), [ids["a@acme.com"], ids["b@acme.com"], ids["c@acme.com"]].sort());
    for (const e of events) {
      const properties = typeof e.properties === "string" ? JSON.parse(e.properties) : e.properties;
      t.is(properties.plan, "team");
      t.is(new Date(e.occurred_at).toISOString(), "2026-11-22T09:30:00.000Z");
    }
    const linked = await s.knex("account_event_deliveries").whereNotNull("custom_event_id").select("custom_event_id");
    t.deepEqual(linked.map((row: any) => row.custom_event_id).sort(), events.map((e: any) => e.id).sort());
    t.is((await s.knex("account_events")).length, 1);

    // Once more: nothing is delivered again.
    const third = await ok(s.call("POST", "/api/v1/accounts/org-1/events", { body }));
    t.like(third, { duplicate: true, recipientCount: 4 });
    t.is((await s.knex("custom_events").where({ name: "plan_changed" })).length, 3);
    // The same eventId on another account is another event.
    await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "org-2" } }));
    t.like(await ok(s.call("POST", "/api/v1/accounts/org-2/events", { body })), { duplicate: false, recipientCount: 0 });
  });

  test(name("an event reaches at most 1,000 recipients and says when it was truncated"), async (t) => {
    const s = await session(t, dialect);
    const account = await ok(s.call("POST", "/api/v1/accounts", { body: { externalId: "big" } }));
    const at = "2026-11-01T00:00:00.000Z";
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      id: `sub_${String(i).padStart(5, "0")}`,
      company_id: s.company.companyId,
      email: `p${i}@big.com`,
      custom_attributes: "{}",
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      await s.knex("subscribers").insert(chunk);
      await s
        .knex("account_members")
        .insert(chunk.map((r) => ({ company_id: r.company_id, account_id: account.account.id, subscriber_id: r.id, role: "member", created_at: at })));
    }
    const sent = await ok(
      s.call("POST", "/api/v1/accounts/big/events", { body: { event: "announcement", recipients: "all", occurredAt: "2026-11-20T00:00:00Z" } }),
    );
    t.like(sent, { recipientCount: 1000, truncated: true, account: { memberCount: 1001 } });
    t.true(sent.deliveries.every((d: any) => d.success));
    t.is(Number((await s.knex("custom_events").where({ name: "announcement" }).count({ n: "*" }).first())!.n), 1000);
  });
}
