import { fileURLToPath } from "node:url";
import test from "ava";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { browserTest, launchBrowser } from "../../helpers/browser.js";
import { dialects } from "../../helpers/databases.js";
import { BASE_URL } from "../../helpers/runtime.js";

/** axe-core's browser bundle, injected into the page under test. */
const AXE = fileURLToPath(new URL("../../../../node_modules/axe-core/axe.min.js", import.meta.url));
/** A person's browser: headless Chromium names itself, and a crawler's visit is no view. */
const PERSON = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
}

for (const dialect of dialects()) {
  browserTest(test)(`${dialect.name}: Chromium shows a published landing page, laid out and accessible, and its form counts a conversion`, async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: company.ownerKey, body });
    const listId = (await call("POST", "/api/v1/lists", { name: "Waitlist" })).body.list.id;
    const formId = (await call("POST", "/api/v1/forms", { name: "Waitlist", listIds: [listId], successMessage: "You are on the list." })).body.form.id;
    const page = (await call("POST", "/api/v1/landing-pages", { name: "Waitlist", template: "waitlist" })).body.landingPage;
    const blocks = page.content.blocks.map((block: { type: string }) => (block.type === "form" ? { ...block, formId } : block));
    t.is((await call("POST", `/api/v1/landing-pages/${page.id}/publish`, { content: { blocks } })).status, 200);

    const browser = await launchBrowser(t);
    const context = await browser.newContext({ userAgent: PERSON, viewport: { width: 390, height: 844 }, bypassCSP: true });
    const tab = await context.newPage();
    await tab.goto(`${api.server.url}${page.publicUrl.slice(BASE_URL.length)}`);
    t.is(await tab.title(), "Join the waitlist");

    // Laid out for a phone: heading, form and footer visible, nothing wider than the screen.
    const heading = tab.getByRole("heading", { level: 1, name: "Join the waitlist" });
    t.true(await heading.isVisible());
    t.true(await tab.getByRole("button", { name: "Subscribe" }).isVisible());
    t.true(await tab.getByText("© Acme").isVisible());
    const headingBox = (await heading.boundingBox())!;
    const footerBox = (await tab.locator("footer").boundingBox())!;
    t.true(headingBox.y < footerBox.y, "the footer comes after the hero");
    const overflow = await tab.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    t.is(overflow, 0, "no sideways scrolling");
    const screenshot = await tab.screenshot({ fullPage: true });
    t.true(screenshot.length > 1_000, "the page renders");

    await tab.addScriptTag({ path: AXE });
    const violations = await tab.evaluate(async () => {
      const results = await (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe.run();
      return results.violations.map(({ id, impact }) => ({ id, impact }));
    });
    t.deepEqual(
      violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical"),
      [],
    );

    await tab.getByLabel("Email").fill("ann@example.com");
    await tab.getByRole("button", { name: "Subscribe" }).click();
    await tab.getByText("You are on the list.").waitFor();

    const after = (await call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage;
    t.like(after, { viewCount: 1, conversionCount: 1 });
    const ann = (await call("GET", "/api/v1/subscribers/ann%40example.com")).body.subscriber;
    t.is((await api.runtime.knex("list_memberships").where({ list_id: listId, subscriber_id: ann.id })).length, 1);
  });
}
