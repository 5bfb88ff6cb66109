import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

/** POST /email-components/defaults/{slot}/preview: the footer a PUT would set, rendered, and nothing saved. */

const PREVIEW = "/api/v1/email-components/defaults/footer/preview";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a proposed footer is rendered under a sample email or a template, with merge values, and not saved"), async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const call = await pacedCaller(api, company);

    const sample = await call("POST", PREVIEW, {
      body: { name: "New footer", blocks: [{ type: "footer", content: "Acme Inc, 1 Main Street", showUnsubscribe: false }] },
    });
    t.is(sample.status, 200);
    t.like(sample.body, {
      subject: "Footer preview",
      previewText: null,
      template: null,
      personalized: false,
      trackingApplied: false,
      unresolvedMergeTags: [],
      footer: { slot: "footer", blocks: [{ type: "footer", content: "Acme Inc, 1 Main Street", showUnsubscribe: true }] },
      warnings: ["showUnsubscribe stays true on the default footer: its unsubscribe link cannot be turned off"],
    });
    t.true(sample.body.html.includes("Acme Inc, 1 Main Street"));
    t.true(sample.body.html.includes("The content of your emails appears here."));
    t.true(sample.body.html.includes("http://lifecycle.test/u/preview"), "the unsubscribe link points at the preview placeholder");
    t.true(sample.body.text.includes("Acme Inc, 1 Main Street"));
    t.is((await call("GET", "/api/v1/email-components/defaults/footer")).status, 404, "nothing was saved");
    t.deepEqual((await call("GET", "/api/v1/email-components")).body.components, []);

    // The saved default is what emails get; the preview shows the proposed one instead.
    t.is((await call("PUT", "/api/v1/email-components/defaults/footer", { body: { blocks: [{ type: "footer", content: "Old footer" }] } })).status, 200);
    const template = (
      await call("POST", "/api/v1/templates", {
        body: { name: "Welcome", subject: "Hi {{firstName}}", blocks: [{ type: "text", content: "Hello {{firstName}}" }] },
      })
    ).body.template;
    const underTemplate = await call("POST", PREVIEW, {
      body: {
        blocks: [{ type: "footer", content: "Sent by {{sender}} to {{email}} {{ missing }}" }],
        templateId: template.id,
        subscriber: { email: "pat@example.com", firstName: "Pat" },
        variables: { sender: "Acme Support" },
      },
    });
    t.is(underTemplate.status, 200);
    t.like(underTemplate.body, {
      subject: "Hi Pat",
      template: { id: template.id, name: "Welcome" },
      personalized: true,
      unresolvedMergeTags: [{ tag: "missing", reason: "unknown" }],
    });
    t.false("warnings" in underTemplate.body);
    t.true(underTemplate.body.html.includes("Hello Pat"));
    t.true(underTemplate.body.html.includes("Sent by Acme Support to pat@example.com"));
    t.false(underTemplate.body.html.includes("Old footer"));
    const rendered = await call("POST", `/api/v1/templates/${template.id}/render`, { body: {} });
    t.true(rendered.body.html.includes("Old footer"), "the template's own render still uses the saved default");
    t.like((await call("GET", "/api/v1/email-components/defaults/footer")).body.component, {
      blocks: [{ type: "footer", content: "Old footer", showUnsubscribe: true }],
      version: 1,
    });
  });

  test(name("bad input is refused; another company's template and contacts are not found; scopes are checked"), async (t) => {
    const api = await apiFixture(t, dialect);
    const a = await createCompanyFixture(api.runtime.container);
    const b = await createCompanyFixture(api.runtime.container);
    const call = await pacedCaller(api, a);
    const callB = await pacedCaller(api, b, 1);
    const footer = [{ type: "footer" }];

    const slot = await call("POST", "/api/v1/email-components/defaults/header/preview", { body: { blocks: footer } });
    t.deepEqual([slot.status, slot.body.error], [400, "Unsupported slot 'header': supported slots are footer"]);
    const empty = await call("POST", PREVIEW, { body: { blocks: [] } });
    t.deepEqual([empty.status, empty.body.error], [400, "blocks must contain at least one block"]);
    const missing = await call("POST", PREVIEW, { body: {} });
    t.deepEqual([missing.status, missing.body.errors], [422, [{ path: "blocks", message: "is required" }]]);
    const badBlock = await call("POST", PREVIEW, { body: { blocks: [{ type: "carousel" }] } });
    t.is(badBlock.status, 422);
    const both = await call("POST", PREVIEW, { body: { blocks: footer, subscriberId: "sub_x", subscriber: { email: "pat@example.com" } } });
    t.deepEqual([both.status, both.body.error], [400, "Provide subscriberId or subscriber, not both"]);
    t.is((await call("POST", PREVIEW, { rawBody: "{" })).status, 400);

    const theirTemplate = (await callB("POST", "/api/v1/templates", { body: { name: "Theirs", subject: "S", blocks: [{ type: "text", content: "secret" }] } }))
      .body.template;
    const theirContact = (await callB("POST", "/api/v1/subscribers", { body: { email: "theirs@example.com" } })).body.subscriber;
    const template = await call("POST", PREVIEW, { body: { blocks: footer, templateId: theirTemplate.id } });
    t.deepEqual([template.status, template.body.error], [404, "Template not found"]);
    const contact = await call("POST", PREVIEW, { body: { blocks: footer, subscriberId: theirContact.id } });
    t.deepEqual([contact.status, contact.body.error], [404, "Subscriber not found"]);
    t.is((await callB("POST", PREVIEW, { body: { blocks: footer, templateId: theirTemplate.id, subscriberId: theirContact.id } })).status, 200);

    const componentsOnly = await createMemberKeyFixture(api.runtime.container, a.companyId, { scopes: ["emails:read"] });
    const refused = await api.call("POST", PREVIEW, { key: componentsOnly.key, body: { blocks: footer } });
    t.deepEqual([refused.status, refused.body.error], [403, "API key is missing required scope: templates:read"]);
  });
}
