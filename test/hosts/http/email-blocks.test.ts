import test from "ava";
import { BLOCK_TYPES } from "../../../core/emails/blocks.js";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

/** GET /email-blocks/{blockType}: one block type's reference, with an example the API itself accepts. */

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("each block type has a reference whose example is a valid block; an unknown type is 404"), async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container);
    const call = await pacedCaller(api, company);

    const catalog = (await call("GET", "/api/v1/email-blocks")).body.blockTypes;
    const examples = [];
    for (const type of BLOCK_TYPES) {
      const response = await call("GET", `/api/v1/email-blocks/${type}`);
      t.is(response.status, 200, type);
      const { example, ...description } = response.body.blockType;
      t.deepEqual(
        description,
        catalog.find((entry: { type: string }) => entry.type === type),
        `${type}: the catalog's entry`,
      );
      t.is(example.type, type);
      examples.push(example);
    }
    t.like((await call("GET", "/v1/email-blocks/button")).body.blockType, {
      type: "button",
      required: ["text", "url"],
      example: { type: "button", text: "Get started", url: "https://example.com/start" },
    });

    // The examples are blocks the API accepts and renders.
    const stored = await call("POST", "/api/v1/email-components", { body: { name: "Every example", blocks: examples } });
    t.is(stored.status, 200);
    t.deepEqual(stored.body.component.blocks, examples);
    const template = await call("POST", "/api/v1/templates", { body: { name: "Examples", subject: "Hi", blocks: examples } });
    t.is(template.status, 200);
    const rendered = await call("POST", `/api/v1/templates/${template.body.template.id}/render`, {
      body: { subscriber: { email: "pat@example.com", firstName: "Pat" } },
    });
    t.is(rendered.status, 200);
    t.true(rendered.body.html.includes("Welcome, Pat"));

    const unknown = await call("GET", "/api/v1/email-blocks/carousel");
    t.deepEqual(
      [unknown.status, unknown.body],
      [404, { success: false, error: "Unknown block type 'carousel': use one of heading, text, list, button, image, divider, spacer, html, footer, columns" }],
    );
    const keyless = await api.call("GET", "/api/v1/email-blocks/text");
    t.is(keyless.status, 401);
    const writer = await createMemberKeyFixture(api.runtime.container, company.companyId, { scopes: ["tags:read"] });
    const refused = await api.call("GET", "/api/v1/email-blocks/text", { key: writer.key });
    t.deepEqual([refused.status, refused.body.error], [403, "API key is missing required scope: emails:read"]);
  });
}
