import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { Database } from "../../../hosts/tokens.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container, { name: "Acme & Sons" });
  return { api: fixture, company, call: await pacedCaller(fixture, company) };
}

const BLOCKS = [
  { type: "heading", content: "Hello {{ firstName }}" },
  { type: "text", content: "Welcome aboard." },
  { type: "button", text: "Start", url: "https://app.example.test/start" },
];

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("templates are created from blocks or html, read, listed with offset pagination and label filter"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.call("POST", "/api/v1/templates", {
      body: { name: "Welcome", subject: "Hi {{ firstName }}", previewText: "Glad you're here", blocks: BLOCKS, labels: ["onboarding", "onboarding", "email"] },
    });
    t.is(created.status, 200);
    const welcome = created.body.template;
    t.regex(welcome.id, /^tpl_/);
    t.deepEqual(created.body, {
      success: true,
      template: {
        id: welcome.id,
        name: "Welcome",
        subject: "Hi {{ firstName }}",
        previewText: "Glad you're here",
        html: null,
        blocks: BLOCKS,
        labels: ["onboarding", "email"],
        emailPreset: null,
        createdAt: "2026-11-22T10:00:00.000Z",
        updatedAt: "2026-11-22T10:00:00.000Z",
      },
    });

    s.api.clock.advance(1000);
    const html = await s.call("POST", "/api/v1/templates", { body: { name: "Receipt", subject: "Your receipt", html: "<p>Thanks</p>" } });
    t.is(html.status, 200);
    t.like(html.body.template, { html: "<p>Thanks</p>", blocks: null, previewText: null, labels: [] });
    s.api.clock.advance(1000);
    const third = (await s.call("POST", "/api/v1/templates", { body: { name: "Third", subject: "3", html: "<p>3</p>", labels: ["email"] } })).body.template;

    const got = await s.call("GET", `/api/v1/templates/${welcome.id}`);
    t.deepEqual(
      got.body,
      { success: true, template: { ...welcome, shareUrl: null, localizations: [] } },
      "the detail adds the share link and the localized variants",
    );
    t.deepEqual((await s.call("GET", `/v1/templates/${welcome.id}`)).body, got.body, "also under /v1");

    const all = await s.call("GET", "/api/v1/templates");
    t.is(all.status, 200);
    t.deepEqual(
      all.body.templates.map((tpl: { name: string }) => tpl.name),
      ["Third", "Receipt", "Welcome"],
      "newest first",
    );
    t.deepEqual(all.body.pagination, { limit: 50, offset: 0, count: 3, total: 3, hasMore: false });
    const page = await s.call("GET", "/api/v1/templates?limit=1&offset=1");
    t.deepEqual(
      [page.body.templates.map((tpl: { id: string }) => tpl.id), page.body.pagination],
      [[html.body.template.id], { limit: 1, offset: 1, count: 1, total: 3, hasMore: true }],
    );
    const labelled = await s.call("GET", "/api/v1/templates?label=email");
    t.deepEqual(
      labelled.body.templates.map((tpl: { id: string }) => tpl.id),
      [third.id, welcome.id],
    );
    t.is(labelled.body.pagination.total, 2);
    t.deepEqual((await s.call("GET", "/api/v1/templates?label=nothing")).body.pagination, { limit: 50, offset: 0, count: 0, total: 0, hasMore: false });

    for (const [query, path, message] of [
      ["limit=0", "limit", "must be between 1 and 100"],
      ["limit=101", "limit", "must be between 1 and 100"],
      ["offset=-1", "offset", "must be between 0 and 1000000000"],
      ["limit=ten", "limit", "must be an integer"],
    ] as const) {
      const bad = await s.call("GET", `/api/v1/templates?${query}`);
      t.deepEqual([bad.status, bad.body.errors], [422, [{ path, message }]], query);
    }
  });

  test(name("template creation rules: name, subject, exactly one body source, no AI prompt, valid blocks"), async (t) => {
    const s = await session(t, dialect);
    const post = (body: unknown) => s.call("POST", "/api/v1/templates", { body });

    const noName = await post({ subject: "s", html: "<p>x</p>" });
    t.deepEqual([noName.status, noName.body.errors], [422, [{ path: "name", message: "is required" }]]);
    const noSubject = await post({ name: "n", html: "<p>x</p>" });
    t.deepEqual(
      [noSubject.status, noSubject.body],
      [422, { success: false, error: "Invalid request: subject is required", errors: [{ path: "subject", message: "is required" }] }],
    );
    const both = await post({ name: "n", subject: "s", html: "<p>x</p>", blocks: BLOCKS });
    t.deepEqual([both.status, both.body], [400, { success: false, error: "Provide exactly one of html or blocks" }]);
    const neither = await post({ name: "n", subject: "s" });
    t.deepEqual([neither.status, neither.body.error], [400, "Provide exactly one of html or blocks"]);
    const empty = await post({ name: "n", subject: "s", blocks: [] });
    t.deepEqual([empty.status, empty.body.error], [400, "blocks must contain at least one block"]);
    const prompt = await post({ name: "n", prompt: "Write a welcome email", style: "branded" });
    t.deepEqual([prompt.status, prompt.body.error], [400, "AI generation (prompt) is not available on this server: provide the content as html or blocks"]);

    const unknownType = await post({
      name: "n",
      subject: "s",
      blocks: [
        { type: "text", content: "ok" },
        { type: "carousel", images: [] },
      ],
    });
    t.is(unknownType.status, 422);
    t.deepEqual(unknownType.body.errors, [
      { path: "blocks.1.type", message: "is not a known block type; use one of: heading, text, list, button, image, divider, spacer, html, footer, columns" },
    ]);
    const missingField = await post({ name: "n", subject: "s", blocks: [{ type: "button", text: "Go" }] });
    t.deepEqual([missingField.status, missingField.body.errors], [422, [{ path: "blocks.0.url", message: "is required" }]]);
    const nested = await post({
      name: "n",
      subject: "s",
      blocks: [{ type: "columns", columns: [{ blocks: [{ type: "footer" }] }, { blocks: [{ type: "text", content: "x" }] }] }],
    });
    t.deepEqual(nested.body.errors, [
      { path: "blocks.0.columns.0.blocks.0.type", message: "is not a known block type; use one of: heading, text, list, button, image, divider, spacer, html" },
    ]);
    const badColor = await post({ name: "n", subject: "s", blocks: [{ type: "text", content: "x", styles: { backgroundColor: "red" } }] });
    t.deepEqual(badColor.body.errors, [{ path: "blocks.0.styles.backgroundColor", message: "must be a hex color such as #2563EB" }]);
    const notObject = await post({ name: "n", subject: "s", blocks: ["text"] });
    t.deepEqual(notObject.body.errors, [{ path: "blocks.0", message: "must be a block object with a type" }]);

    // Unknown block fields are dropped.
    const extra = await post({ name: "n", subject: "s", blocks: [{ type: "divider", color: "red", id: "d1" }] });
    t.deepEqual(extra.body.template.blocks, [{ type: "divider", id: "d1" }]);
  });

  test(name("templates are updated field by field, and deleted for the API while the row stays"), async (t) => {
    const s = await session(t, dialect);
    const template = (await s.call("POST", "/api/v1/templates", { body: { name: "A", subject: "S", previewText: "P", blocks: BLOCKS } })).body.template;

    const nothing = await s.call("PUT", `/api/v1/templates/${template.id}`, { body: { templateId: template.id } });
    t.deepEqual([nothing.status, nothing.body], [400, { success: false, error: "No supported fields provided" }]);
    const prompt = await s.call("PUT", `/api/v1/templates/${template.id}`, { body: { prompt: "Rewrite" } });
    t.is(prompt.status, 400);
    const both = await s.call("PUT", `/api/v1/templates/${template.id}`, { body: { html: "<p>x</p>", blocks: BLOCKS } });
    t.deepEqual([both.status, both.body.error], [400, "Provide exactly one of html or blocks"]);

    s.api.clock.advance(60_000);
    const renamed = await s.call("PUT", `/api/v1/templates/${template.id}`, { body: { name: "B", previewText: null } });
    t.is(renamed.status, 200);
    t.deepEqual(renamed.body.template, { ...template, name: "B", previewText: null, updatedAt: "2026-11-22T10:01:00.000Z" });
    const toHtml = await s.call("PUT", `/api/v1/templates/${template.id}`, { body: { html: "<p>Now HTML</p>", labels: ["x"] } });
    t.like(toHtml.body.template, { html: "<p>Now HTML</p>", blocks: null, labels: ["x"], subject: "S" });
    t.deepEqual((await s.call("GET", `/api/v1/templates/${template.id}`)).body.template, { ...toHtml.body.template, shareUrl: null, localizations: [] });

    const missing = await s.call("PUT", "/api/v1/templates/tpl_missing", { body: { name: "x" } });
    t.deepEqual([missing.status, missing.body], [404, { success: false, error: "Template not found" }]);

    const deleted = await s.call("DELETE", `/api/v1/templates/${template.id}`);
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, templateId: template.id }]);
    t.is((await s.call("GET", `/api/v1/templates/${template.id}`)).status, 404);
    t.is((await s.call("PUT", `/api/v1/templates/${template.id}`, { body: { name: "x" } })).status, 404);
    t.deepEqual((await s.call("DELETE", `/api/v1/templates/${template.id}`)).body, { success: false, error: "Template not found" });
    t.deepEqual((await s.call("GET", "/api/v1/templates")).body.pagination.total, 0);
    // The content stays for what points at it.
    const row = await s.api.runtime.container.get<Knex>(Database)("templates").where({ id: template.id }).first();
    t.truthy(row.deleted_at);
    t.is(row.html, "<p>Now HTML</p>");
  });

  test(name("another company's templates are 404, and scopes are enforced"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a.api);
    const template = (await a.call("POST", "/api/v1/templates", { body: { name: "Mine", subject: "S", html: "<p>x</p>" } })).body.template;

    for (const [method, path, body] of [
      ["GET", `/api/v1/templates/${template.id}`, undefined],
      ["PUT", `/api/v1/templates/${template.id}`, { name: "Stolen" }],
      ["POST", `/api/v1/templates/${template.id}/render`, {}],
      ["DELETE", `/api/v1/templates/${template.id}`, undefined],
    ] as const) {
      const response = await b.call(method, path, body === undefined ? {} : { body });
      t.deepEqual([response.status, response.body], [404, { success: false, error: "Template not found" }], `${method} ${path}`);
    }
    t.deepEqual((await b.call("GET", "/api/v1/templates")).body.templates, []);
    t.is((await a.call("GET", `/api/v1/templates/${template.id}`)).body.template.name, "Mine");

    const reader = await createMemberKeyFixture(a.api.runtime.container, a.company.companyId, { role: "owner", scopes: ["templates:read"] });
    t.is((await a.api.call("GET", "/api/v1/templates", { key: reader.key })).status, 200);
    const write = await a.api.call("POST", "/api/v1/templates", { key: reader.key, body: { name: "n", subject: "s", html: "<p>x</p>" } });
    t.deepEqual([write.status, write.body], [403, { success: false, error: "API key is missing required scope: templates:write" }]);
    const none = await createMemberKeyFixture(a.api.runtime.container, a.company.companyId, { role: "owner", scopes: ["tags:read"] });
    t.is((await a.api.call("GET", "/api/v1/templates", { key: none.key })).status, 403);
  });

  test(name("a template preview renders with the company's theme, default footer and a contact's values"), async (t) => {
    const s = await session(t, dialect);
    const knex = s.api.runtime.container.get<Knex>(Database);
    await knex("companies")
      .where({ id: s.company.companyId })
      .update({ primary_color: "#BE123C", email_theme: JSON.stringify({ presetId: "soft", colors: { surface: "#FEFCE8" } }) });
    const template = (
      await s.call("POST", "/api/v1/templates", {
        body: {
          name: "Welcome",
          subject: "Hi {{ firstName }}",
          previewText: "For {{ plan }}",
          blocks: [...BLOCKS, { type: "text", content: "Code: {{ code }} {{ company.size }}" }],
        },
      })
    ).body.template;

    const anonymous = await s.call("POST", `/api/v1/templates/${template.id}/render`, {});
    t.is(anonymous.status, 200);
    t.like(anonymous.body, {
      success: true,
      subject: "Hi",
      previewText: "For",
      personalized: false,
      trackingApplied: false,
      locale: "default",
      unevaluatedConditions: [],
    });
    t.deepEqual(anonymous.body.entity, { type: "template", id: template.id, variantId: null });
    t.deepEqual(anonymous.body.unresolvedMergeTags, [
      { tag: "firstName", reason: "unknown" },
      { tag: "plan", reason: "unknown" },
      { tag: "code", reason: "unknown" },
      { tag: "company.size", reason: "unknown" },
    ]);
    t.true(anonymous.body.html.includes("#BE123C"), "the company's primary color");
    t.true(anonymous.body.html.includes("#FEFCE8"), "the stored theme's surface");
    t.true(anonymous.body.html.includes("<strong>Acme &amp; Sons</strong>"), "generated footer");
    t.true(anonymous.body.html.includes('href="http://'), "links present");
    t.regex(anonymous.body.text, /Unsubscribe \[http:\/\/[^\]]+\/u\/preview\]/);

    const subscriber = (
      await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann", customAttributes: { plan: "Pro" } } })
    ).body.subscriber;
    t.truthy(subscriber?.id);
    const footer = await s.call("PUT", "/api/v1/email-components/defaults/footer", { body: { blocks: [{ type: "footer", content: "1 Main St" }] } });
    t.is(footer.status, 200);
    const personal = await s.call("POST", `/api/v1/templates/${template.id}/render`, {
      body: { subscriberId: subscriber.id, variables: { code: "<b>SAVE10</b>" } },
    });
    t.is(personal.status, 200);
    t.like(personal.body, { subject: "Hi Ann", previewText: "For Pro", personalized: true });
    t.true(personal.body.html.includes("Code: &lt;b&gt;SAVE10&lt;/b&gt;"));
    t.true(personal.body.html.includes("1 Main St"), "the default footer component");
    t.deepEqual(personal.body.unresolvedMergeTags, [{ tag: "company.size", reason: "unknown" }]);

    const inline = await s.call("POST", `/api/v1/templates/${template.id}/render`, { body: { subscriber: { email: "Bob@Example.com", firstName: "Bob" } } });
    t.like(inline.body, { subject: "Hi Bob", personalized: true });
    const both = await s.call("POST", `/api/v1/templates/${template.id}/render`, {
      body: { subscriberId: subscriber.id, subscriber: { email: "x@example.com" } },
    });
    t.deepEqual([both.status, both.body.error], [400, "Provide subscriberId or subscriber, not both"]);
    const unknown = await s.call("POST", `/api/v1/templates/${template.id}/render`, { body: { subscriberId: "sub_missing" } });
    t.deepEqual([unknown.status, unknown.body.error], [404, "Subscriber not found"]);
    const invalidEmail = await s.call("POST", `/api/v1/templates/${template.id}/render`, { body: { subscriber: { email: "nope" } } });
    t.deepEqual([invalidEmail.status, invalidEmail.body.errors], [422, [{ path: "subscriber.email", message: "must be a valid email address" }]]);

    const broken = (await s.call("POST", "/api/v1/templates", { body: { name: "Broken", subject: "{{ name | shout }}", html: "<p>x</p>" } })).body.template;
    const failed = await s.call("POST", `/api/v1/templates/${broken.id}/render`, {});
    t.deepEqual(
      [failed.status, failed.body],
      [400, { success: false, error: "Invalid merge tag in subject: undefined filter: shout, line:1, col:1", code: "INVALID_MERGE_TAG" }],
    );
  });
}
