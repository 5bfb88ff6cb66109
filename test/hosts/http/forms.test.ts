import test, { type ExecutionContext } from "ava";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { BASE_URL } from "../../helpers/runtime.js";
import { createAndEnable, sequenceSession } from "../../helpers/sequence-session.js";

interface Session {
  readonly api: ApiFixture;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): Promise<JsonResponse>;
  /** A visitor's post at a form's actionUrl, JSON unless `form` says form-encoded. */
  submit(formId: string, fields: Record<string, string | string[]>, options?: { form?: boolean; accept?: string }): Promise<Response>;
  /** A form of company A filing under a new list and tag. */
  newForm(body?: Record<string, unknown>): Promise<{ formId: string; listId: string; tagId: string }>;
  contact(email: string, company?: CompanyFixture): Promise<JsonResponse>;
  listMembers(listId: string): Promise<string[]>;
  contactCount(): Promise<number>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const container = api.runtime.container;
  const a = await createCompanyFixture(container, { name: "Acme" });
  const b = await createCompanyFixture(container, { name: "Beta" });
  const call: Session["call"] = (method, path, options = {}, company = a) => api.call(method, path, { key: company.ownerKey, ...options });
  const knex = api.runtime.knex;
  return {
    api,
    a,
    b,
    call,
    submit: (formId, fields, options = {}) => {
      const url = `${api.server.url}/api/v1/forms/${formId}`;
      // undici says only "fetch failed"; what the socket said is in its cause (a CI run once met one here).
      const said = (error: unknown) => {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new Error(`POST ${url} failed: ${cause?.code ?? ""} ${cause?.message ?? String(error)}`, { cause: error });
      };
      if (options.form) {
        const body = new URLSearchParams();
        for (const [key, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(key, one);
        return fetch(url, { method: "POST", body, redirect: "manual", headers: { accept: options.accept ?? "text/html,application/xhtml+xml" } }).catch(said);
      }
      return fetch(url, { method: "POST", body: JSON.stringify(fields), headers: { "content-type": "application/json" } }).catch(said);
    },
    async newForm(body = {}) {
      const listId = (await call("POST", "/api/v1/lists", { body: { name: `Newsletter ${Math.random()}` } })).body.list.id;
      const tagId = (await call("POST", "/api/v1/tags", { body: { name: `from-form-${Math.random().toString(36).slice(2, 8)}` } })).body.tag.id;
      const created = await call("POST", "/api/v1/forms", { body: { name: "Footer signup", listIds: [listId], tagIds: [tagId], ...body } });
      if (created.status !== 200) throw new Error(JSON.stringify(created.body));
      return { formId: created.body.form.id, listId, tagId };
    },
    contact: (email, company = a) => call("GET", `/api/v1/subscribers/${encodeURIComponent(email)}`, {}, company),
    listMembers: async (listId) =>
      (await knex("list_memberships").join("subscribers", "subscribers.id", "list_memberships.subscriber_id").where({ list_id: listId }).select("email")).map(
        (row: { email: string }) => row.email,
      ),
    contactCount: async () => Number((await knex("subscribers").count({ n: "*" }).first())!.n),
  };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: forms ${title}`;

  test(name("are created as the spec answers, with lists and tags of the company only, and need widgets:write"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    const tag = (await s.call("POST", "/api/v1/tags", { body: { name: "From footer" } })).body.tag;

    const created = await s.call("POST", "/api/v1/forms", {
      body: { name: "Footer signup", listIds: [list.id], tagIds: [tag.id], successMessage: "Welcome aboard!", duplicateStrategy: "merge" },
    });
    t.is(created.status, 200);
    const id: string = created.body.form.id;
    t.regex(id, /^form_[A-Za-z0-9_-]{32}$/, "a random capability, not a time-sortable ID");
    const actionUrl = `${BASE_URL}/api/v1/forms/${id}`;
    t.deepEqual(created.body, {
      success: true,
      form: { id, name: "Footer signup", status: "published", actionUrl },
      embed: { actionUrl, scriptUrl: `${actionUrl}/embed.js` },
    });

    // Another company's list or tag is as unknown as a made-up one; nothing is saved.
    const theirList = (await s.call("POST", "/api/v1/lists", { body: { name: "Theirs" } }, s.b)).body.list;
    const theirTag = (await s.call("POST", "/api/v1/tags", { body: { name: "theirs" } }, s.b)).body.tag;
    const foreignList = await s.call("POST", "/api/v1/forms", { body: { name: "X", listIds: [list.id, theirList.id] } });
    t.deepEqual([foreignList.status, foreignList.body], [400, { success: false, error: `List not found: ${theirList.id}` }]);
    const foreignTag = await s.call("POST", "/api/v1/forms", { body: { name: "X", listIds: [list.id], tagIds: [theirTag.id] } });
    t.deepEqual([foreignTag.status, foreignTag.body], [400, { success: false, error: `Tag not found: ${theirTag.id}` }]);
    const noLists = await s.call("POST", "/api/v1/forms", { body: { name: "X" } });
    t.is(noLists.status, 422);
    t.deepEqual(noLists.body.errors, [{ path: "listIds", message: "is required" }]);
    const badRedirect = await s.call("POST", "/api/v1/forms", { body: { name: "X", listIds: [list.id], redirectUrl: "javascript:alert(1)" } });
    t.deepEqual([badRedirect.status, badRedirect.body.errors], [422, [{ path: "redirectUrl", message: "must be an absolute HTTP or HTTPS URL" }]]);

    const reader = await createMemberKeyFixture(s.api.runtime.container, s.a.companyId, { role: "owner", email: s.a.ownerEmail, scopes: ["widgets:read"] });
    const refused = await s.api.call("POST", "/api/v1/forms", { key: reader.key, body: { name: "X", listIds: [list.id] } });
    t.deepEqual([refused.status, refused.body.error], [403, "API key is missing required scope: widgets:write"]);

    const listed = await s.call("GET", "/api/v1/forms");
    t.deepEqual(
      listed.body.forms.map((form: { id: string }) => form.id),
      [id],
    );
    t.deepEqual((await s.call("GET", "/api/v1/forms", {}, s.b)).body.forms, [], "another company sees none of them");
    t.is((await s.api.call("GET", "/api/v1/forms", { key: reader.key })).status, 200);
  });

  test(name("are listed with their settings, edited with PATCH and embedded, only by their own company"), async (t) => {
    const s = await session(t, dialect);
    const { formId, listId, tagId } = await s.newForm({ headline: "Join us", showFirstName: true, theme: { accentColor: "#AA0000", borderRadius: 4 } });
    const [form] = (await s.call("GET", "/api/v1/forms")).body.forms;
    t.like(form, {
      id: formId,
      status: "published",
      listIds: [listId],
      tagIds: [tagId],
      duplicateStrategy: "skip",
      successMessage: "Thanks for subscribing!",
      redirectUrl: null,
      headline: "Join us",
      buttonText: "Subscribe",
      showFirstName: true,
      showLastName: false,
      theme: { accentColor: "#aa0000", borderRadius: 4, density: "balanced" },
    });
    t.deepEqual(
      form.blocks.map((block: { type: string }) => block.type),
      ["heading", "first_name", "email", "submit"],
    );

    const patched = await s.call("PATCH", `/api/v1/forms/${formId}`, {
      body: { tagIds: [], redirectUrl: "https://acme.example/thanks", theme: { density: "compact" }, buttonText: "Sign me up" },
    });
    t.is(patched.status, 200);
    t.like(patched.body.form, {
      tagIds: [],
      redirectUrl: "https://acme.example/thanks",
      buttonText: "Sign me up",
      theme: { accentColor: "#aa0000", density: "compact" },
    });
    t.deepEqual(patched.body.embed, { actionUrl: `${BASE_URL}/api/v1/forms/${formId}`, scriptUrl: `${BASE_URL}/api/v1/forms/${formId}/embed.js` });
    const back = await s.call("PATCH", `/api/v1/forms/${formId}`, { body: { redirectUrl: "" } });
    t.is(back.body.form.redirectUrl, null, "'' goes back to the success message");

    const blocks = [
      { type: "heading", text: "Stay in touch" },
      { type: "email", text: "Work email", required: false },
      { type: "submit", text: "Go" },
    ];
    const laidOut = await s.call("PATCH", `/api/v1/forms/${formId}`, { body: { blocks } });
    t.deepEqual(laidOut.body.form.blocks, [
      { type: "heading", text: "Stay in touch" },
      { type: "email", text: "Work email", placeholder: "", required: true },
      { type: "submit", text: "Go" },
    ]);
    const noSubmit = await s.call("PATCH", `/api/v1/forms/${formId}`, { body: { blocks: [{ type: "email", text: "Email" }] } });
    t.deepEqual([noSubmit.status, noSubmit.body.error], [400, "blocks must contain exactly one submit button"]);
    const empty = await s.call("PATCH", `/api/v1/forms/${formId}`, { body: {} });
    t.deepEqual([empty.status, empty.body.error], [400, "No supported fields provided"]);

    const embed = await s.call("GET", `/api/v1/forms/embed/${formId}`);
    t.is(embed.status, 200);
    t.is(embed.body.form.id, formId);
    t.is(embed.body.embed.snippets.script, `<script src="${BASE_URL}/api/v1/forms/${formId}/embed.js" async></script>`);
    t.regex(embed.body.embed.snippets.html, new RegExp(`<form action="${BASE_URL}/api/v1/forms/${formId}" method="post">`));
    t.regex(embed.body.embed.snippets.html, /name="website" tabindex="-1"/);

    // Company B can neither see nor change it.
    t.deepEqual((await s.call("GET", `/api/v1/forms/embed/${formId}`, {}, s.b)).body, { success: false, error: "Form not found" });
    const theirs = await s.call("PATCH", `/api/v1/forms/${formId}`, { body: { name: "Hijacked" } }, s.b);
    t.deepEqual([theirs.status, theirs.body.error], [404, "Form not found"]);
    t.is((await s.call("GET", "/api/v1/forms")).body.forms[0].name, "Footer signup");
  });

  test(name("take a visitor's signup with the form's own lists, tags and strategy, never the request's"), async (t) => {
    const s = await session(t, dialect);
    const { formId, listId, tagId } = await s.newForm({ successMessage: "See you soon!" });
    const tagName = (await s.call("GET", "/api/v1/tags")).body.tags.find((tag: { id: string }) => tag.id === tagId).name;
    const otherList = (await s.call("POST", "/api/v1/lists", { body: { name: "Secret" } })).body.list;

    const preflight = await fetch(`${s.api.server.url}/api/v1/forms/${formId}`, {
      method: "OPTIONS",
      headers: { origin: "https://acme.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    t.is(preflight.status, 204);
    t.is(preflight.headers.get("access-control-allow-origin"), "*");
    t.regex(preflight.headers.get("access-control-allow-headers") ?? "", /Content-Type/);

    const response = await s.submit(formId, {
      email: " Ann@Example.com ",
      firstName: "Ann",
      lastName: "Lee",
      lists: otherList.id,
      tags: "evil",
      redirectUrl: "https://evil.example",
    });
    t.is(response.status, 200);
    t.is(response.headers.get("access-control-allow-origin"), "*");
    t.deepEqual(await response.json(), { success: true, message: "See you soon!" });
    const ann = (await s.contact("ann@example.com")).body.subscriber;
    t.like(ann, { email: "ann@example.com", firstName: "Ann", lastName: "Lee", status: "active" });
    t.deepEqual(ann.tags, [tagName]);
    t.deepEqual(await s.listMembers(listId), ["ann@example.com"]);
    t.deepEqual(await s.listMembers(otherList.id), [], "a list named in the request is ignored");
    t.false((await s.call("GET", "/api/v1/tags")).body.tags.some((tag: { name: string }) => tag.name === "evil"));

    // skip (the default): a returning visitor's contact stays as it was.
    await s.submit(formId, { email: "ann@example.com", firstName: "Annie" });
    t.is((await s.contact("ann@example.com")).body.subscriber.firstName, "Ann");
    // merge: what the visitor gives is applied.
    t.is((await s.call("PATCH", `/api/v1/forms/${formId}`, { body: { duplicateStrategy: "merge" } })).status, 200);
    t.is((await s.submit(formId, { email: "ann@example.com", firstName: "Annie" })).status, 200);
    t.is((await s.contact("ann@example.com")).body.subscriber.firstName, "Annie");

    // The contact belongs to the form's company only.
    t.is((await s.contact("ann@example.com", s.b)).status, 404);
  });

  test(name("answer a plain HTML post with a page or a 303, and bad input with a clear error that stores nothing"), async (t) => {
    const s = await session(t, dialect);
    const { formId, listId } = await s.newForm({ successMessage: "Thanks, <friend>!" });

    const page = await s.submit(formId, { email: "bo@example.com", website: "" }, { form: true });
    t.is(page.status, 200);
    t.regex(page.headers.get("content-type") ?? "", /text\/html/);
    const html = await page.text();
    t.regex(html, /<!doctype html>/);
    t.regex(html, /Thanks, &lt;friend&gt;!/, "the message is text, not markup");
    t.deepEqual(await s.listMembers(listId), ["bo@example.com"]);

    // Form-encoded from a script that asks for JSON gets JSON.
    const json = await s.submit(formId, { email: "cy@example.com" }, { form: true, accept: "application/json" });
    t.deepEqual(await json.json(), { success: true, message: "Thanks, <friend>!" });

    t.is((await s.call("PATCH", `/api/v1/forms/${formId}`, { body: { redirectUrl: "https://acme.example/welcome" } })).status, 200);
    const redirected = await s.submit(formId, { email: "di@example.com" }, { form: true });
    t.is(redirected.status, 303);
    t.is(redirected.headers.get("location"), "https://acme.example/welcome");
    const viaJson = await s.submit(formId, { email: "ed@example.com" });
    t.deepEqual(await viaJson.json(), { success: true, message: "Thanks, <friend>!", redirectUrl: "https://acme.example/welcome" });

    const before = await s.contactCount();
    const invalid = await s.submit(formId, { email: "not an address" });
    t.is(invalid.status, 422);
    t.like(await invalid.json(), { success: false, errors: [{ path: "email", message: "must be a valid email address" }] });
    const missing = await s.submit(formId, { firstName: "Nobody" }, { form: true });
    t.is(missing.status, 422);
    t.regex(await missing.text(), /email is required/);
    const unknown = await s.submit("form_doesnotexist", { email: "fa@example.com" });
    t.deepEqual([unknown.status, await unknown.json()], [404, { success: false, error: "Form not found" }]);
    const malformed = await fetch(`${s.api.server.url}/api/v1/forms/${formId}`, { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    t.is(malformed.status, 400);
    const huge = await s.submit(formId, { email: "gi@example.com", firstName: "x".repeat(20_000) });
    t.is(huge.status, 413);
    t.is(await s.contactCount(), before, "nothing was stored");
  });

  test(name("accept a filled honeypot silently and store nothing"), async (t) => {
    const s = await session(t, dialect);
    const { formId } = await s.newForm();
    const before = await s.contactCount();
    const bot = await s.submit(formId, { email: "bot@example.com", website: "https://spam.example" });
    t.deepEqual([bot.status, await bot.json()], [200, { success: true, message: "Thanks for subscribing!" }]);
    const botPage = await s.submit(formId, { email: "bot2@example.com", website: "x" }, { form: true });
    t.is(botPage.status, 200);
    t.is(await s.contactCount(), before);
    t.is((await s.contact("bot@example.com")).status, 404);
  });

  test(name("ask a new contact to confirm when the company has double opt-in on"), async (t) => {
    const s = await session(t, dialect);
    const sender = await s.api.runtime.container.get(SetUpOperatorSender).execute(OPERATOR, s.a.companyId, "hello@acme.example");
    t.is(sender._tag, "Right");
    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    const { formId } = await s.newForm();
    t.is((await s.submit(formId, { email: "gil@example.com" })).status, 200);
    const gil = (await s.contact("gil@example.com")).body.subscriber;
    const knex = s.api.runtime.knex;
    const optIn = await knex("opt_ins").where({ subscriber_id: gil.id }).first();
    t.truthy(optIn, "the contact is unconfirmed");
    t.is(optIn.confirmed_at, null);
    const sends = await knex("email_sends").where({ company_id: s.a.companyId, recipient_email: "gil@example.com" });
    t.is(sends.length, 1, "one confirmation email is queued");
  });

  test(name("start contact_added sequences for the contacts they create, as the API does"), async (t) => {
    const s = await sequenceSession(t, dialect);
    await createAndEnable(s, { name: "Welcome", trigger: "contact_added", steps: [{ subject: "Welcome", html: "<p>Hi</p>" }] });
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "News" } })).body.list;
    const form = (await s.call("POST", "/api/v1/forms", { body: { name: "Footer", listIds: [list.id] } })).body.form;
    const signup = await fetch(`${s.api.server.url}/api/v1/forms/${form.id}`, {
      method: "POST",
      body: JSON.stringify({ email: "new@example.com" }),
      headers: { "content-type": "application/json" },
    });
    t.is(signup.status, 200);
    await s.runJobs();
    t.deepEqual(s.received(), { "new@example.com": ["Welcome"] });
  });

  test(name("embed.js serves the form's layout and theme, never its lists or tags"), async (t) => {
    const s = await session(t, dialect);
    const { formId, listId, tagId } = await s.newForm({ headline: "Weekly </script> news", theme: { accentColor: "#112233" } });
    const script = await fetch(`${s.api.server.url}/api/v1/forms/${formId}/embed.js`);
    t.is(script.status, 200);
    t.regex(script.headers.get("content-type") ?? "", /application\/javascript/);
    const source = await script.text();
    t.true(source.includes('"accentColor":"#112233"'));
    t.true(source.includes("Weekly \\u003c/script> news"), "inlined text cannot close a script element");
    t.false(source.includes(listId));
    t.false(source.includes(tagId));
    t.is((await fetch(`${s.api.server.url}/api/v1/forms/form_nope/embed.js`)).status, 404);
  });

  test(name("limit signups per client address"), async (t) => {
    const s = await session(t, dialect);
    const { formId } = await s.newForm();
    for (let i = 0; i < 10; i++) t.is((await s.submit(formId, { email: `p${i}@example.com` })).status, 200);
    const before = await s.contactCount();
    const refused = await s.submit(formId, { email: "p10@example.com" });
    t.is(refused.status, 429);
    t.truthy(Number(refused.headers.get("retry-after")) >= 1);
    t.regex(((await refused.json()) as { error: string }).error, /^Too many signups: at most 10 per minute\. Retry after \d+ seconds?\.$/);
    t.is(await s.contactCount(), before, "the refused signup stored nothing");
  });
}
