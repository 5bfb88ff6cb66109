import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { BASE_URL } from "../../helpers/runtime.js";

/** Template share links: a public, anonymised view-in-browser copy, idempotent to create and revoked at once. */

const WELCOME = {
  name: "Welcome",
  subject: "Welcome, {{firstName}}",
  blocks: [
    { type: "heading", content: "Hello {{ firstName }}" },
    { type: "button", text: "Open", url: "https://acme.test/app" },
  ],
};

/** The public page, fetched as a browser would: no key. */
async function page(api: ApiFixture, shareUrl: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${api.server.url}${new URL(shareUrl).pathname}${new URL(shareUrl).search}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a template is shared once, shown anonymised to anyone with the URL, and revoked for good"), async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const call = await pacedCaller(api, company);
    const template = (await call("POST", "/api/v1/templates", { body: WELCOME })).body.template;

    const shared = await call("POST", `/api/v1/templates/${template.id}/share-link`);
    t.is(shared.status, 200);
    const { shareUrl, shareToken } = shared.body;
    t.regex(shareToken, /^[A-Za-z0-9_-]{32}$/);
    t.deepEqual(shared.body, { success: true, templateId: template.id, shareUrl: `${BASE_URL}/share/emails/${shareToken}`, shareToken, created: true });
    const again = await call("POST", `/api/v1/templates/${template.id}/share-link`);
    t.deepEqual(again.body, { ...shared.body, created: false }, "idempotent: the same URL");
    t.is((await call("GET", `/api/v1/templates/${template.id}`)).body.template.shareUrl, shareUrl);

    const shown = await page(api, shareUrl);
    t.is(shown.status, 200);
    t.regex(shown.headers.get("content-type") ?? "", /^text\/html/);
    t.is(shown.headers.get("cache-control"), "no-store");
    t.is(shown.headers.get("x-robots-tag"), "noindex");
    t.regex(shown.headers.get("content-security-policy") ?? "", /default-src 'none'.*sandbox/);
    t.true(shown.text.includes("Hello Jane"), "rendered for the sample contact");
    t.true(shown.text.includes("https://acme.test/app"), "links go straight to their destination");
    t.false(shown.text.includes("/t/o/") || shown.text.includes("/t/c/"), "no tracking");
    t.true(shown.text.includes(`${BASE_URL}/u/preview`), "an inert unsubscribe link");

    const revoked = await call("DELETE", `/api/v1/templates/${template.id}/share-link`);
    t.deepEqual(revoked.body, { success: true, templateId: template.id, revoked: true });
    t.is((await page(api, shareUrl)).status, 404);
    t.is((await call("GET", `/api/v1/templates/${template.id}`)).body.template.shareUrl, null);
    t.deepEqual((await call("DELETE", `/api/v1/templates/${template.id}/share-link`)).body, { success: true, templateId: template.id, revoked: false });

    const reshared = await call("POST", `/api/v1/templates/${template.id}/share-link`);
    t.like(reshared.body, { created: true });
    t.not(reshared.body.shareUrl, shareUrl, "a new URL: copies of the old one stay dead");
    t.is((await page(api, shareUrl)).status, 404);
    t.is((await page(api, reshared.body.shareUrl)).status, 200);

    // A deleted template's link goes with it.
    t.is((await call("DELETE", `/api/v1/templates/${template.id}`)).status, 200);
    t.is((await page(api, reshared.body.shareUrl)).status, 404);
    t.is((await call("POST", `/api/v1/templates/${template.id}/share-link`)).status, 404);
    t.is((await page(api, `${BASE_URL}/share/emails/not-a-token`)).status, 404);
  });

  test(name("a transactional email is shared by its ID or slug; other companies and narrower keys cannot share"), async (t) => {
    const api = await apiFixture(t, dialect);
    const a = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const b = await createCompanyFixture(api.runtime.container, { name: "Bee" });
    const callA = await pacedCaller(api, a);
    const callB = await pacedCaller(api, b);
    const receipt = (
      await callA("POST", "/api/v1/transactional", { body: { name: "Receipt", slug: "receipt", subject: "Your receipt", html: "<p>Paid, {{firstName}}</p>" } })
    ).body.transactional;

    const bySlug = await callA("POST", "/api/v1/templates/receipt/share-link");
    t.like(bySlug.body, { templateId: receipt.emailId, created: true });
    const byId = await callA("POST", `/api/v1/templates/${receipt.id}/share-link`);
    t.like(byId.body, { templateId: receipt.emailId, shareUrl: bySlug.body.shareUrl, created: false });
    t.true((await page(api, bySlug.body.shareUrl)).text.includes("Paid, Jane"));

    for (const reference of [receipt.emailId, receipt.id, "receipt", "tpl_missing"]) {
      for (const method of ["POST", "DELETE"]) {
        const refused = await callB(method, `/api/v1/templates/${reference}/share-link`);
        t.deepEqual([refused.status, refused.body], [404, { success: false, error: "Template not found" }], `${method} ${reference}`);
      }
    }
    t.is((await page(api, bySlug.body.shareUrl)).status, 200, "still shared");

    const reader = await createMemberKeyFixture(api.runtime.container, a.companyId, { scopes: ["templates:read"] });
    const readOnly = await api.call("POST", "/api/v1/templates/receipt/share-link", { key: reader.key });
    t.deepEqual([readOnly.status, readOnly.body.error], [403, "API key is missing required scope: templates:write"]);
    t.is((await api.call("DELETE", "/api/v1/templates/receipt/share-link", { key: reader.key })).status, 403);
  });
}
