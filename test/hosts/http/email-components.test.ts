import test, { type ExecutionContext } from "ava";
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
  const company = await createCompanyFixture(fixture.runtime.container);
  return { api: fixture, company, call: await pacedCaller(fixture, company) };
}

const HERO = [
  { type: "heading", content: "Big news", level: 2 },
  { type: "text", content: "Read all about it." },
];
const NOW = "2026-11-22T10:00:00.000Z";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("components are created, listed, read, changed by the spec's rules and deleted"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.call("POST", "/api/v1/email-components", { body: { name: "Hero", blocks: HERO, description: "Top of newsletters" } });
    t.is(created.status, 200);
    const hero = created.body.component;
    t.regex(hero.id, /^ecmp_/);
    t.deepEqual(created.body, {
      success: true,
      component: {
        id: hero.id,
        companyId: s.company.companyId,
        name: "Hero",
        description: "Top of newsletters",
        blocks: HERO,
        componentType: "section",
        defaultSlot: null,
        version: 1,
        createdAt: NOW,
        updatedAt: NOW,
      },
    });
    const legal = (
      await s.call("POST", "/api/v1/email-components", {
        body: { name: "Legal", blocks: [{ type: "footer", content: "Terms apply" }], componentType: "footer" },
      })
    ).body.component;
    t.like(legal, { componentType: "footer", description: null });

    const duplicate = await s.call("POST", "/api/v1/email-components", { body: { name: "Hero", blocks: HERO } });
    t.deepEqual([duplicate.status, duplicate.body], [409, { success: false, error: "An email component named 'Hero' already exists" }]);
    const noBlocks = await s.call("POST", "/api/v1/email-components", { body: { name: "Empty", blocks: [] } });
    t.deepEqual([noBlocks.status, noBlocks.body.error], [400, "blocks must contain at least one block"]);
    const missing = await s.call("POST", "/api/v1/email-components", { body: { name: "X" } });
    t.deepEqual([missing.status, missing.body.errors], [422, [{ path: "blocks", message: "is required" }]]);
    const unknownBlock = await s.call("POST", "/api/v1/email-components", { body: { name: "X", blocks: [{ type: "poll" }] } });
    t.is(unknownBlock.status, 422);
    t.is(unknownBlock.body.errors[0].path, "blocks.0.type");
    const badType = await s.call("POST", "/api/v1/email-components", { body: { name: "X", blocks: HERO, componentType: "header" } });
    t.deepEqual(badType.body.errors, [{ path: "componentType", message: "must be one of: section, footer" }]);

    const listed = await s.call("GET", "/api/v1/email-components");
    t.deepEqual(
      listed.body.components.map((c: { name: string }) => c.name),
      ["Hero", "Legal"],
    );
    t.deepEqual(
      (await s.call("GET", "/api/v1/email-components?type=footer")).body.components.map((c: { id: string }) => c.id),
      [legal.id],
    );
    t.deepEqual((await s.call("GET", "/api/v1/email-components?defaultsOnly=true")).body.components, []);
    t.is((await s.call("GET", "/api/v1/email-components?type=header")).status, 422);
    t.deepEqual((await s.call("GET", `/api/v1/email-components/${hero.id}`)).body, { success: true, component: hero });
    const unknown = await s.call("GET", "/api/v1/email-components/ecmp_missing");
    t.deepEqual([unknown.status, unknown.body], [404, { success: false, error: "Email component not found" }]);

    // PATCH, word for word.
    const nothing = await s.call("PATCH", `/api/v1/email-components/${hero.id}`, { body: { color: "red" } });
    t.deepEqual([nothing.status, nothing.body], [400, { success: false, error: "No supported fields provided" }]);
    s.api.clock.advance(60_000);
    const cleared = await s.call("PATCH", `/api/v1/email-components/${hero.id}`, { body: { description: "" } });
    t.deepEqual(cleared.body, { success: true, component: { ...hero, description: null, updatedAt: "2026-11-22T10:01:00.000Z" } });
    const sameBlocks = await s.call("PATCH", `/api/v1/email-components/${hero.id}`, { body: { blocks: HERO } });
    t.is(sameBlocks.body.component.version, 1, "unchanged blocks keep the version");
    const newBlocks = [{ type: "text", content: "Replaced" }];
    const changed = await s.call("PATCH", `/api/v1/email-components/${hero.id}`, { body: { blocks: newBlocks, name: "Hero v2", componentType: "footer" } });
    t.like(changed.body.component, { name: "Hero v2", blocks: newBlocks, version: 2, componentType: "footer" });
    t.false("warnings" in changed.body);
    const emptyBlocks = await s.call("PATCH", `/api/v1/email-components/${hero.id}`, { body: { blocks: [] } });
    t.deepEqual([emptyBlocks.status, emptyBlocks.body.error], [400, "blocks must contain at least one block"]);
    const taken = await s.call("PATCH", `/api/v1/email-components/${hero.id}`, { body: { name: "Legal" } });
    t.deepEqual([taken.status, taken.body], [409, { success: false, error: "An email component named 'Legal' already exists" }]);
    t.is((await s.call("PATCH", "/api/v1/email-components/ecmp_missing", { body: { name: "x" } })).status, 404);
    t.deepEqual((await s.call("GET", `/api/v1/email-components/${hero.id}`)).body.component.blocks, newBlocks);

    const deleted = await s.call("DELETE", `/api/v1/email-components/${hero.id}`);
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, id: hero.id }]);
    t.is((await s.call("GET", `/api/v1/email-components/${hero.id}`)).status, 404);
    t.deepEqual((await s.call("DELETE", `/api/v1/email-components/${hero.id}`)).body, { success: false, error: "Email component not found" });
  });

  test(name("the default footer: 404 until set, only the footer slot, unsubscribe link kept on, versioned edits"), async (t) => {
    const s = await session(t, dialect);
    const none = await s.call("GET", "/api/v1/email-components/defaults/footer");
    t.deepEqual([none.status, none.body], [404, { success: false, error: "No default footer component is set" }]);
    const header = await s.call("GET", "/api/v1/email-components/defaults/header");
    t.deepEqual([header.status, header.body], [400, { success: false, error: "Unsupported slot 'header': supported slots are footer" }]);
    t.is((await s.call("PUT", "/api/v1/email-components/defaults/header", { body: { blocks: [{ type: "footer" }] } })).status, 400);

    const set = await s.call("PUT", "/api/v1/email-components/defaults/footer", {
      body: { name: "Brand footer", blocks: [{ type: "footer", showUnsubscribe: false, content: "1 Main St" }] },
    });
    t.is(set.status, 200);
    const footer = set.body.component;
    t.like(footer, {
      name: "Brand footer",
      componentType: "footer",
      defaultSlot: "footer",
      version: 1,
      blocks: [{ type: "footer", showUnsubscribe: true, content: "1 Main St" }],
    });
    t.deepEqual(set.body.application, { slot: "footer", created: true, appliesTo: "emails_without_own_footer", unsubscribeLink: "always_included" });
    t.deepEqual(set.body.warnings, ["showUnsubscribe stays true on the default footer: its unsubscribe link cannot be turned off"]);
    t.deepEqual((await s.call("GET", "/api/v1/email-components/defaults/footer")).body, { success: true, component: footer });
    t.deepEqual((await s.call("GET", "/api/v1/email-components?defaultsOnly=true")).body.components, [footer]);

    const again = await s.call("PUT", "/api/v1/email-components/defaults/footer", {
      body: { blocks: [{ type: "footer", variant: "compact" }], description: "Compact" },
    });
    t.like(again.body.component, {
      id: footer.id,
      name: "Brand footer",
      description: "Compact",
      version: 2,
      blocks: [{ type: "footer", variant: "compact", showUnsubscribe: true }],
    });
    t.is(again.body.application.created, false);
    t.false("warnings" in again.body);

    const patched = await s.call("PATCH", `/api/v1/email-components/${footer.id}`, { body: { blocks: [{ type: "footer", showUnsubscribe: false }] } });
    t.is(patched.status, 200);
    t.deepEqual(patched.body.component.blocks, [{ type: "footer", showUnsubscribe: true }]);
    t.is(patched.body.component.version, 3);
    t.deepEqual(patched.body.warnings, ["showUnsubscribe stays true on the default footer: its unsubscribe link cannot be turned off"]);
    const toSection = await s.call("PATCH", `/api/v1/email-components/${footer.id}`, { body: { componentType: "section" } });
    t.deepEqual([toSection.status, toSection.body.error], [400, "The default footer must keep componentType footer; set another default footer first"]);
    const missingBlocks = await s.call("PUT", "/api/v1/email-components/defaults/footer", { body: { name: "x" } });
    t.deepEqual([missingBlocks.status, missingBlocks.body.errors], [422, [{ path: "blocks", message: "is required" }]]);

    // A non-default component may still turn its link off (emails get one injected anyway).
    const plain = await s.call("POST", "/api/v1/email-components", {
      body: { name: "Quiet", blocks: [{ type: "footer", showUnsubscribe: false }], componentType: "footer" },
    });
    t.deepEqual(plain.body.component.blocks, [{ type: "footer", showUnsubscribe: false }]);
    const clash = await s.call("PUT", "/api/v1/email-components/defaults/footer", { body: { name: "Quiet", blocks: [{ type: "footer" }] } });
    t.deepEqual([clash.status, clash.body.error], [409, "An email component named 'Quiet' already exists"]);

    // Deleting the default footer brings back the 404 (emails use the generated footer).
    t.is((await s.call("DELETE", `/api/v1/email-components/${footer.id}`)).status, 200);
    t.is((await s.call("GET", "/api/v1/email-components/defaults/footer")).status, 404);
  });

  test(name("a template holds a copy of a component's blocks: editing the component changes no template"), async (t) => {
    const s = await session(t, dialect);
    const component = (await s.call("POST", "/api/v1/email-components", { body: { name: "Hero", blocks: HERO } })).body.component;
    const template = (await s.call("POST", "/api/v1/templates", { body: { name: "Newsletter", subject: "News", blocks: component.blocks } })).body.template;
    await s.call("PATCH", `/api/v1/email-components/${component.id}`, { body: { blocks: [{ type: "text", content: "Changed" }] } });
    t.deepEqual((await s.call("GET", `/api/v1/templates/${template.id}`)).body.template.blocks, HERO);
  });

  test(name("another company's components are 404, and scopes are enforced"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a.api);
    const component = (await a.call("POST", "/api/v1/email-components", { body: { name: "Hero", blocks: HERO } })).body.component;
    await a.call("PUT", "/api/v1/email-components/defaults/footer", { body: { blocks: [{ type: "footer" }] } });

    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "Mine now" }],
      ["DELETE", undefined],
    ] as const) {
      const response = await b.call(method, `/api/v1/email-components/${component.id}`, body === undefined ? {} : { body });
      t.deepEqual([response.status, response.body], [404, { success: false, error: "Email component not found" }], method);
    }
    t.deepEqual((await b.call("GET", "/api/v1/email-components")).body.components, []);
    t.is((await b.call("GET", "/api/v1/email-components/defaults/footer")).status, 404);
    t.is((await b.call("POST", "/api/v1/email-components", { body: { name: "Hero", blocks: HERO } })).status, 200, "names are unique per company");
    t.is((await a.call("GET", `/api/v1/email-components/${component.id}`)).body.component.name, "Hero");

    const reader = await createMemberKeyFixture(a.api.runtime.container, a.company.companyId, { role: "owner", scopes: ["emails:read"] });
    t.is((await a.api.call("GET", "/api/v1/email-components", { key: reader.key })).status, 200);
    const write = await a.api.call("PATCH", `/api/v1/email-components/${component.id}`, { key: reader.key, body: { name: "x" } });
    t.deepEqual([write.status, write.body], [403, { success: false, error: "API key is missing required scope: emails:write" }]);
    const templatesOnly = await createMemberKeyFixture(a.api.runtime.container, a.company.companyId, { role: "owner", scopes: ["templates:read"] });
    t.is((await a.api.call("GET", "/api/v1/email-components/defaults/footer", { key: templatesOnly.key })).status, 403);
  });

  test(name("GET /email-blocks describes every block type and its fields"), async (t) => {
    const s = await session(t, dialect);
    const response = await s.call("GET", "/v1/email-blocks");
    t.is(response.status, 200);
    const types = response.body.blockTypes;
    t.deepEqual(
      types.map((type: { type: string }) => type.type),
      ["heading", "text", "list", "button", "image", "divider", "spacer", "html", "footer", "columns"],
    );
    const button = types.find((type: { type: string }) => type.type === "button");
    t.deepEqual(button.required, ["text", "url"]);
    t.deepEqual(button.optional, ["id", "styles", "variant", "align"]);
    t.deepEqual(
      button.fields.find((field: { name: string }) => field.name === "variant"),
      { name: "variant", required: false, type: "string", values: ["primary", "secondary"] },
    );
    const heading = types.find((type: { type: string }) => type.type === "heading");
    t.deepEqual(
      heading.fields.find((field: { name: string }) => field.name === "level"),
      { name: "level", required: false, type: "integer", values: [1, 2, 3] },
    );
    const list = types.find((type: { type: string }) => type.type === "list");
    t.deepEqual(list.fields.find((field: { name: string }) => field.name === "items").itemFields, [{ name: "content", required: true, type: "string" }]);
  });
}
