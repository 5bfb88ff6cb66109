import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import test, { type ExecutionContext } from "ava";
import type { Page } from "playwright-core";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { browserTest, launchBrowser } from "../../helpers/browser.js";
import { dialects } from "../../helpers/databases.js";

/** axe-core's browser bundle, injected into the page under test. */
const AXE = fileURLToPath(new URL("../../../../node_modules/axe-core/axe.min.js", import.meta.url));

/** A company's own site on another loopback origin, with the form's script pasted in. */
async function hostPage(t: ExecutionContext, scriptUrl: string): Promise<string> {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme</title></head>
<body><main><h1>Acme news</h1>
<script src="${scriptUrl}" async></script>
</main></body></html>`;
  const server: Server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
}

async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const results = await (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe.run();
    return results.violations.map(({ id, impact, help }) => ({ id, impact, help }));
  });
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

for (const dialect of dialects()) {
  browserTest(test)(`${dialect.name}: Chromium submits an embedded form: the contact has the form's lists and tags, the honeypot stores nothing`, async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: company.ownerKey, body });
    const listId = (await call("POST", "/api/v1/lists", { name: "Newsletter" })).body.list.id;
    const tagId = (await call("POST", "/api/v1/tags", { name: "website" })).body.tag.id;
    const created = await call("POST", "/api/v1/forms", {
      name: "Footer",
      listIds: [listId],
      tagIds: [tagId],
      headline: "Get the newsletter",
      showFirstName: true,
      successMessage: "Thanks! Check your inbox.",
    });
    t.is(created.status, 200);
    const formId: string = created.body.form.id;
    // The script is served by this test's server; the official scriptUrl names the configured BASE_URL.
    const url = await hostPage(t, `${api.server.url}/api/v1/forms/${formId}/embed.js`);

    const browser = await launchBrowser(t);
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByRole("heading", { name: "Get the newsletter" }).waitFor();
    t.deepEqual(await seriousViolations(page), [], "no serious or critical accessibility issue");

    await page.getByLabel("First name").fill("Ann");
    await page.getByLabel("Email").fill("ann@example.com");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Thanks! Check your inbox.").waitFor();
    t.is(page.url(), url, "no page load");
    t.false(await page.locator("form").isVisible());

    const ann = await call("GET", "/api/v1/subscribers/ann%40example.com");
    t.is(ann.status, 200);
    t.like(ann.body.subscriber, { firstName: "Ann", tags: ["website"] });
    const members = await api.runtime.knex("list_memberships").where({ list_id: listId, subscriber_id: ann.body.subscriber.id });
    t.is(members.length, 1);

    // A bot fills every field, the hidden one too: it is thanked, and nothing is kept.
    await page.reload();
    await page.getByLabel("Email").fill("bot@example.com");
    await page.locator('input[name="website"]').fill("https://spam.example", { force: true });
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Thanks! Check your inbox.").waitFor();
    t.is((await call("GET", "/api/v1/subscribers/bot%40example.com")).status, 404);
  });
}
