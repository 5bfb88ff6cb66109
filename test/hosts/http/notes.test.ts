import test, { type ExecutionContext } from "ava";
import { Sha256ApiKeySecrets } from "../../../adapters/crypto/api-key-secrets.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

/** A company whose owner is named, calling with its owner keys in turn (20 requests a second per key). */
async function session(t: ExecutionContext, dialect: Dialect, api?: ApiFixture, ownerName = "Olivia Owner"): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container);
  await fixture.runtime.knex("users").where({ email: company.ownerEmail }).update({ name: ownerName });
  const ring = [
    company.ownerKey,
    (await createMemberKeyFixture(fixture.runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key,
  ];
  let next = 0;
  return { api: fixture, company, call: (method, path, options = {}) => fixture.call(method, path, { ...options, key: ring[next++ % ring.length]! }) };
}

const notesOf = (email: string) => `/api/v1/subscribers/${encodeURIComponent(email)}/notes`;
const externalNotes = (externalId: string) => `/api/v1/subscribers/external/notes?externalId=${encodeURIComponent(externalId)}`;
const SUBSCRIBER_NOT_FOUND = { success: false, error: "Subscriber not found" };
const NOTE_NOT_FOUND = { success: false, error: "Note not found" };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function contact(s: Session, body: Record<string, unknown>): Promise<{ id: string; email: string }> {
  const response = await s.call("POST", "/api/v1/subscribers", { body });
  if (response.status !== 200) throw new Error(`subscriber not created: ${JSON.stringify(response.body)}`);
  return response.body.subscriber;
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: notes: ${title}`;

  test(name("POST adds a note written by the key's team member; GET lists them newest first"), async (t) => {
    const s = await session(t, dialect);
    const ada = await contact(s, { email: "ada+crm@example.com" });

    const added = await s.call("POST", notesOf("Ada+CRM@example.com"), { body: { body: "  Called about the enterprise plan.  " } });
    t.is(added.status, 200);
    const note = added.body.note;
    t.regex(note.id, /^note_[0-9A-Z]{26}$/);
    t.deepEqual(added.body, {
      success: true,
      note: {
        id: note.id,
        subscriberId: ada.id,
        authorId: s.company.ownerMemberId,
        body: "Called about the enterprise plan.",
        createdAt: "2026-11-22T10:00:00.000Z",
        updatedAt: "2026-11-22T10:00:00.000Z",
        author: { id: s.company.ownerMemberId, name: "Olivia Owner", email: s.company.ownerEmail },
      },
    });

    // Another team member's key: the note is theirs.
    const admin = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, { role: "admin", email: "admin@team.example" });
    s.api.clock.advance(60_000);
    const second = await s.api.call("POST", "/api/v1/subscribers/ada+crm@example.com/notes", { key: admin.key, body: { body: "Follow up next week" } });
    t.is(second.status, 200);
    t.deepEqual(second.body.note.author, { id: admin.memberId, name: null, email: "admin@team.example" });
    t.is(second.body.note.authorId, admin.memberId);
    t.regex(second.body.note.createdAt, ISO);

    const listed = await s.call("GET", notesOf("ada+crm@example.com"));
    t.is(listed.status, 200);
    t.deepEqual(Object.keys(listed.body).sort(), ["notes", "success"]);
    t.deepEqual(listed.body.notes, [second.body.note, note]);

    // The detail shows the same notes; the record other routes return never does.
    const detail = await s.call("GET", "/api/v1/subscribers/ada%2Bcrm%40example.com");
    t.deepEqual(detail.body.subscriber.notes, [second.body.note, note]);
    const list = await s.call("GET", "/api/v1/subscribers");
    t.false(JSON.stringify(list.body).includes("enterprise plan"));
    const patched = await s.call("PATCH", notesOf("ada+crm@example.com").replace(/\/notes$/, ""), { body: { firstName: "Ada" } });
    t.false(JSON.stringify(patched.body).includes("enterprise plan"));

    const unknown = await s.call("GET", notesOf("nobody@example.com"));
    t.deepEqual([unknown.status, unknown.body], [404, SUBSCRIBER_NOT_FOUND]);
    const unknownPost = await s.call("POST", notesOf("nobody@example.com"), { body: { body: "hello" } });
    t.deepEqual([unknownPost.status, unknownPost.body], [404, SUBSCRIBER_NOT_FOUND]);
  });

  test(name("the body is required, at most 5000 characters after trimming"), async (t) => {
    const s = await session(t, dialect);
    await contact(s, { email: "limits@example.com" });
    const path = notesOf("limits@example.com");

    for (const body of [{}, { body: "" }, { body: "   \n\t " }, { body: null }]) {
      const response = await s.call("POST", path, { body });
      t.deepEqual([response.status, response.body], [400, { success: false, error: "body is required" }], JSON.stringify(body));
    }
    const empty = await s.call("POST", path);
    t.deepEqual([empty.status, empty.body.error], [400, "body is required"], "a request without a body at all");

    const tooLong = await s.call("POST", path, { body: { body: "x".repeat(5001) } });
    t.deepEqual([tooLong.status, tooLong.body], [400, { success: false, error: "body must be at most 5000 characters" }]);
    const longest = await s.call("POST", path, { body: { body: ` ${"y".repeat(5000)} ` } });
    t.is(longest.status, 200);
    t.is(longest.body.note.body.length, 5000);

    const wrongType = await s.call("POST", path, { body: { body: 42 } });
    t.is(wrongType.status, 422);
    t.is(wrongType.body.error, "Invalid request: body must be string");

    const listed = await s.call("GET", path);
    t.is(listed.body.notes.length, 1, "refused notes were not stored");
  });

  test(name("external routes reach contacts whose externalId holds '/'; DELETE removes one note"), async (t) => {
    const s = await session(t, dialect);
    const grace = await contact(s, { email: "grace@example.com", externalId: "org/7/user/3" });

    const added = await s.call("POST", externalNotes("org/7/user/3"), { body: { body: "VIP at org 7" } });
    t.is(added.status, 200);
    t.is(added.body.note.subscriberId, grace.id);
    const other = await s.call("POST", notesOf("grace@example.com"), { body: { body: "Second" } });

    const listed = await s.call("GET", externalNotes("org/7/user/3"));
    t.deepEqual(listed.body.notes.map((n: { body: string }) => n.body).sort(), ["Second", "VIP at org 7"]);
    const missingQuery = await s.call("GET", "/api/v1/subscribers/external/notes");
    t.deepEqual([missingQuery.status, missingQuery.body.error], [422, "Invalid request: externalId is required"]);
    const unknown = await s.call("POST", externalNotes("org/7/user/4"), { body: { body: "x" } });
    t.deepEqual([unknown.status, unknown.body], [404, SUBSCRIBER_NOT_FOUND]);
    const blank = await s.call("POST", externalNotes("org/7/user/3"), { body: { body: " " } });
    t.deepEqual([blank.status, blank.body.error], [400, "body is required"]);

    const deleted = await s.call("DELETE", `/api/v1/subscribers/notes/${added.body.note.id}`);
    t.is(deleted.status, 200);
    t.deepEqual(deleted.body, { success: true, deleted: true, id: added.body.note.id, subscriberId: grace.id });
    const after = await s.call("GET", externalNotes("org/7/user/3"));
    t.deepEqual(
      after.body.notes.map((n: { id: string }) => n.id),
      [other.body.note.id],
    );
    const again = await s.call("DELETE", `/api/v1/subscribers/notes/${added.body.note.id}`);
    t.deepEqual([again.status, again.body], [404, NOTE_NOT_FOUND]);
  });

  test(name("another company's key gets 404 for the subscriber and the note, and changes nothing"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a.api, "Bob B");
    await contact(a, { email: "private@example.com", externalId: "ext/1" });
    const note = (await a.call("POST", notesOf("private@example.com"), { body: { body: "Secret" } })).body.note;

    for (const [method, path] of [
      ["GET", notesOf("private@example.com")],
      ["POST", notesOf("private@example.com")],
      ["GET", externalNotes("ext/1")],
      ["POST", externalNotes("ext/1")],
    ] as const) {
      const response = await b.call(method, path, method === "POST" ? { body: { body: "from B" } } : {});
      t.deepEqual([response.status, response.body], [404, SUBSCRIBER_NOT_FOUND], `${method} ${path}`);
    }
    const foreignDelete = await b.call("DELETE", `/api/v1/subscribers/notes/${note.id}`);
    t.deepEqual([foreignDelete.status, foreignDelete.body], [404, NOTE_NOT_FOUND]);

    // B's own contact with the same email has its own, empty, notes.
    await contact(b, { email: "private@example.com" });
    t.deepEqual((await b.call("GET", notesOf("private@example.com"))).body.notes, []);
    t.deepEqual((await a.call("GET", notesOf("private@example.com"))).body.notes, [note]);
  });

  test(name("reading notes needs subscribers:read, writing and deleting subscribers:write"), async (t) => {
    const s = await session(t, dialect);
    await contact(s, { email: "scoped@example.com" });
    const note = (await s.call("POST", notesOf("scoped@example.com"), { body: { body: "n" } })).body.note;
    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, {
      role: "owner",
      email: s.company.ownerEmail,
      scopes: ["subscribers:read"],
    });
    t.is((await s.api.call("GET", notesOf("scoped@example.com"), { key: reader.key })).status, 200);
    for (const [method, path] of [
      ["POST", notesOf("scoped@example.com")],
      ["DELETE", `/api/v1/subscribers/notes/${note.id}`],
    ] as const) {
      const response = await s.api.call(method, path, { key: reader.key, body: { body: "x" } });
      t.deepEqual([response.status, response.body.error], [403, "API key is missing required scope: subscribers:write"], method);
    }
  });

  test(name("every notes route refuses a missing, malformed, unknown or revoked key with the spec's 401 'Unauthorized'"), async (t) => {
    const s = await session(t, dialect);
    await contact(s, { email: "locked@example.com", externalId: "crm/42" });
    const note = (await s.call("POST", notesOf("locked@example.com"), { body: { body: "n" } })).body.note;
    const revoked = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, { role: "admin" });
    await s.call("DELETE", `/api/v1/api-keys/${revoked.keyId}`);
    const keys = [
      ["missing", undefined],
      ["malformed", "hello"],
      ["never issued", new Sha256ApiKeySecrets().mint().plain],
      ["revoked", revoked.key],
    ] as const;
    const routes = [
      ["GET", notesOf("locked@example.com")],
      ["POST", notesOf("locked@example.com")],
      ["GET", externalNotes("crm/42")],
      ["POST", externalNotes("crm/42")],
      ["DELETE", `/api/v1/subscribers/notes/${note.id}`],
      ["DELETE", `/v1/subscribers/notes/${note.id}`],
    ] as const;
    for (const [method, path] of routes) {
      for (const [label, key] of keys) {
        const response = await s.api.call(method, path, { ...(key ? { key } : {}), ...(method === "POST" ? { body: { body: "x" } } : {}) });
        t.deepEqual([response.status, response.body], [401, { success: false, error: "Unauthorized" }], `${method} ${path}, ${label}`);
      }
      // Refused keys count against the client's address: a fresh minute for each route.
      s.api.clock.advance(60_000);
    }
    // Nothing was written or deleted by the refused requests.
    t.deepEqual((await s.call("GET", notesOf("locked@example.com"))).body.notes, [note]);

    // Routes without a message of their own keep the standard one, whatever path they share a prefix with.
    for (const path of ["/api/v1/subscribers/me", "/api/v1/subscribers/locked%40example.com", "/api/v1/subscribers/operations/notes"]) {
      for (const [label, key] of keys) {
        const response = await s.api.call("GET", path, key ? { key } : {});
        t.deepEqual([response.status, response.body], [401, { success: false, error: "Invalid or missing API key" }], `${path}, ${label}`);
      }
      s.api.clock.advance(60_000);
    }
  });
}
