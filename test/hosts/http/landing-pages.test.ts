import test, { type ExecutionContext } from "ava";
import { LANDING_PAGE_TEMPLATES } from "../../../core/landing-pages/model.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { BASE_URL } from "../../helpers/runtime.js";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const DAY = 24 * 60 * 60 * 1000;

interface Session {
  readonly api: ApiFixture;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): Promise<JsonResponse>;
  /** A visitor's request for one of the server's public URLs (absolute, as the API gives them). */
  visit(url: string, init?: RequestInit & { agent?: string }): Promise<{ status: number; text: string; headers: Headers }>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const a = await createCompanyFixture(api.runtime.container, { name: "Acme" });
  const b = await createCompanyFixture(api.runtime.container, { name: "Beta" });
  // Company A's own calls go through paced owner keys: a long test asks more than 20 times a second on a fast machine.
  const paced = await pacedCaller(api, a);
  return {
    api,
    a,
    b,
    call: (method, path, options = {}, company = a) =>
      company === a && options.key === undefined ? paced(method, path, options) : api.call(method, path, { key: company.ownerKey, ...options }),
    async visit(url, init = {}) {
      const local = url.startsWith(BASE_URL) ? `${api.server.url}${url.slice(BASE_URL.length)}` : url;
      const response = await fetch(local, {
        redirect: "manual",
        ...init,
        headers: { "user-agent": init.agent ?? BROWSER, ...(init.headers as Record<string, string>) },
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
  };
}

const footer = { id: "footer", type: "footer", slot: "footer", text: "© Acme" };

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: landing pages ${title}`;

  test(name("are created as drafts from every template, with unique slugs, and kept to their own company"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.call("POST", "/api/v1/landing-pages", { body: { name: "Spring Launch!", template: "waitlist" } });
    t.is(created.status, 200);
    const page = created.body.landingPage;
    t.like(page, {
      companyId: s.a.companyId,
      name: "Spring Launch!",
      slug: "spring-launch",
      status: "draft",
      viewCount: 0,
      conversionCount: 0,
      publishedAt: null,
      publicUrl: `${BASE_URL}/lp/${s.a.companyId}/spring-launch`,
      appPublicUrl: `${BASE_URL}/lp/${s.a.companyId}/spring-launch`,
      url: `${BASE_URL}/api/v1/landing-pages/${page.id}`,
    });
    t.regex(page.previewUrl, new RegExp(`^${BASE_URL}/lp/preview/${page.id}\\?token=`));
    t.like(page.content, { version: 1, template: "waitlist", seo: { title: "Join the waitlist" } });
    t.deepEqual(
      page.content.blocks.map((block: { type: string; slot: string }) => `${block.type}@${block.slot}`),
      ["heading@hero", "text@hero", "form@form", "footer@footer"],
    );

    for (const template of LANDING_PAGE_TEMPLATES) {
      const made = await s.call("POST", "/api/v1/landing-pages", { body: { name: "Spring Launch", template } });
      t.is(made.status, 200, template);
      t.is(made.body.landingPage.content.template, template);
    }
    const slugs = (await s.call("GET", "/api/v1/landing-pages")).body.landingPages.map((p: { slug: string }) => p.slug);
    t.is(new Set(slugs).size, LANDING_PAGE_TEMPLATES.length + 1, "a slug made from the name is made unique");
    t.true(slugs.includes("spring-launch-2"));

    const taken = await s.call("POST", "/api/v1/landing-pages", { body: { name: "Other", slug: "spring-launch" } });
    t.deepEqual([taken.status, taken.body.error], [409, "A landing page with the slug 'spring-launch' already exists"]);
    const unknownTemplate = await s.call("POST", "/api/v1/landing-pages", { body: { name: "X", template: "casino" } });
    t.is(unknownTemplate.status, 422);
    const badSlug = await s.call("POST", "/api/v1/landing-pages", { body: { name: "X", slug: "Not a slug!" } });
    t.is(badSlug.status, 422);

    // Company B sees none of it, and another company may use the same slug.
    t.deepEqual((await s.call("GET", "/api/v1/landing-pages", {}, s.b)).body.landingPages, []);
    t.deepEqual((await s.call("GET", `/api/v1/landing-pages/${page.id}`, {}, s.b)).body, { success: false, error: "Landing page not found" });
    t.is((await s.call("PUT", `/api/v1/landing-pages/${page.id}`, { body: { name: "Mine" } }, s.b)).status, 404);
    t.is((await s.call("POST", `/api/v1/landing-pages/${page.id}/publish`, {}, s.b)).status, 404);
    t.is((await s.call("DELETE", `/api/v1/landing-pages/${page.id}`, {}, s.b)).status, 404);
    t.is((await s.call("POST", "/api/v1/landing-pages", { body: { name: "Spring Launch" } }, s.b)).body.landingPage.slug, "spring-launch");
    t.is((await s.call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage.name, "Spring Launch!");
  });

  test(name("check their content: slots, one footer, at most one form block, the company's own form"), async (t) => {
    const s = await session(t, dialect);
    const page = (await s.call("POST", "/api/v1/landing-pages", { body: { name: "Page" } })).body.landingPage;
    const put = (content: unknown) => s.call("PUT", `/api/v1/landing-pages/${page.id}`, { body: { content } });
    const heading = { id: "h", type: "heading", slot: "hero", text: "Hello" };

    t.deepEqual((await put({ blocks: [heading] })).body.error, "content.blocks must contain exactly one footer block");
    t.deepEqual((await put({ blocks: [heading, footer, { ...footer, id: "f2" }] })).body.error, "content.blocks must contain exactly one footer block");
    const twoForms = await put({ blocks: [{ id: "f1", type: "form", slot: "form" }, { id: "f2", type: "form", slot: "form" }, footer] });
    t.deepEqual([twoForms.status, twoForms.body.error], [400, "content.blocks may contain at most one form block"]);
    const badSlot = await put({ blocks: [{ ...heading, slot: "sidebar" }, footer] });
    t.is(badSlot.status, 422);
    const script = await put({ blocks: [{ id: "b", type: "button", slot: "body", text: "Go", url: "javascript:alert(1)" }, footer] });
    t.deepEqual([script.status, script.body.errors[0].path], [422, "content.blocks.0.url"]);
    const theirList = (await s.call("POST", "/api/v1/lists", { body: { name: "L" } }, s.b)).body.list;
    const theirForm = (await s.call("POST", "/api/v1/forms", { body: { name: "F", listIds: [theirList.id] } }, s.b)).body.form;
    const foreign = await put({ blocks: [{ id: "f", type: "form", slot: "form", formId: theirForm.id }, footer] });
    t.deepEqual([foreign.status, foreign.body.error], [400, `Form not found: ${theirForm.id}`]);
    const empty = await s.call("PUT", `/api/v1/landing-pages/${page.id}`, { body: {} });
    t.deepEqual([empty.status, empty.body.error], [400, "Provide at least one of name, slug or content"]);
    t.is((await s.call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage.content.template, "from-scratch", "nothing was saved");

    const saved = await put({ seo: { title: "Hello there" }, theme: { primaryColor: "#AA0000" }, blocks: [heading, footer] });
    t.is(saved.status, 200);
    t.deepEqual(saved.body.landingPage.content, {
      version: 1,
      template: "from-scratch",
      seo: { title: "Hello there" },
      theme: { primaryColor: "#aa0000" },
      blocks: [heading, footer],
    });
  });

  test(name("are served when published, previewed only through their signed link, and gone at once when unpublished"), async (t) => {
    const s = await session(t, dialect);
    const created = (await s.call("POST", "/api/v1/landing-pages", { body: { name: "Launch", template: "launch" } })).body.landingPage;
    await s.call("PUT", `/api/v1/landing-pages/${created.id}`, {
      body: {
        content: {
          seo: { title: "Launch <day>", description: "All about it" },
          blocks: [{ id: "h", type: "heading", slot: "hero", text: "We <launch>" }, { id: "l", type: "list", slot: "body", items: ["Fast", "Simple"] }, footer],
        },
      },
    });
    t.is((await s.visit(created.publicUrl)).status, 404, "a draft is not public");

    const preview = await s.visit(created.previewUrl);
    t.is(preview.status, 200);
    t.regex(preview.text, /<h1>We &lt;launch&gt;<\/h1>/);
    t.regex(preview.text, /<meta name="robots" content="noindex">/);
    t.regex(preview.text, /Preview: this page is not published/);
    t.is((await s.visit(`${created.previewUrl}x`)).status, 404, "a tampered token shows nothing");
    const other = (await s.call("POST", "/api/v1/landing-pages", { body: { name: "Other" } })).body.landingPage;
    t.is((await s.visit(created.previewUrl.replace(created.id, other.id))).status, 404, "a token shows only its own page");
    s.api.clock.advance(DAY + 1);
    t.is((await s.visit(created.previewUrl)).status, 404, "a preview link expires");

    const published = await s.call("POST", `/api/v1/landing-pages/${created.id}/publish`, { rawBody: "" });
    t.is(published.status, 200);
    t.like(published.body.landingPage, { status: "published", publishedAt: s.api.clock.now().toISOString() });
    const live = await s.visit(created.publicUrl);
    t.is(live.status, 200);
    t.regex(live.text, /^<!doctype html>\n<html lang="en">/);
    t.regex(live.text, /<title>Launch &lt;day&gt;<\/title>/);
    t.regex(live.text, /<meta name="description" content="All about it">/);
    t.regex(live.text, /<main>[\s\S]*<ul><li>Fast<\/li><li>Simple<\/li><\/ul>[\s\S]*<\/main>\n<footer>\n<p>© Acme<\/p>/);
    t.regex(live.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    t.notRegex(live.text, /noindex/);

    // People's visits are views; crawlers' and HEAD requests are not.
    await s.visit(created.publicUrl);
    await s.visit(created.publicUrl, { agent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
    await s.visit(created.publicUrl, { method: "HEAD" });
    t.is((await s.call("GET", `/api/v1/landing-pages/${created.id}`)).body.landingPage.viewCount, 2);

    const unpublished = await s.call("POST", `/api/v1/landing-pages/${created.id}/unpublish`, { body: { name: "Launch (paused)" } });
    t.like(unpublished.body.landingPage, { status: "draft", name: "Launch (paused)", publishedAt: null });
    t.is((await s.visit(created.publicUrl)).status, 404, "taken down at once");

    const copy = (await s.call("POST", `/api/v1/landing-pages/${created.id}/duplicate`, { rawBody: "" })).body.landingPage;
    t.like(copy, { name: "Launch (paused) (copy)", slug: "launch-copy", status: "draft", viewCount: 0, conversionCount: 0 });
    t.deepEqual(copy.content, (await s.call("GET", `/api/v1/landing-pages/${created.id}`)).body.landingPage.content);

    const deleted = await s.call("DELETE", `/api/v1/landing-pages/${created.id}`);
    t.deepEqual(deleted.body, { success: true, landingPageId: created.id });
    t.is((await s.call("GET", `/api/v1/landing-pages/${created.id}`)).status, 404);
  });

  test(name("post their form block to the form's actionUrl and count the signups as conversions"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Waitlist" } })).body.list;
    const form = (await s.call("POST", "/api/v1/forms", { body: { name: "Waitlist", listIds: [list.id], showFirstName: true } })).body.form;
    const page = (await s.call("POST", "/api/v1/landing-pages", { body: { name: "Waitlist", template: "waitlist" } })).body.landingPage;
    const blocks = page.content.blocks.map((block: { type: string }) => (block.type === "form" ? { ...block, formId: form.id } : block));
    const published = await s.call("POST", `/api/v1/landing-pages/${page.id}/publish`, { body: { content: { blocks } } });
    t.is(published.status, 200);

    const html = (await s.visit(page.publicUrl)).text;
    t.regex(html, new RegExp(`<form class="signup" action="/api/v1/forms/${form.id}" method="post">`));
    t.regex(html, /<label for="field-0">First name<\/label>/);
    t.regex(html, new RegExp(`<input type="hidden" name="landingPageId" value="${page.id}">`));

    const signup = (fields: Record<string, string>) =>
      s.visit(`${s.api.server.url}/api/v1/forms/${form.id}`, { method: "POST", body: new URLSearchParams(fields), headers: { accept: "text/html" } });
    const thanked = await signup({ email: "ann@example.com", firstName: "Ann", landingPageId: page.id, website: "" });
    t.is(thanked.status, 200);
    t.regex(thanked.text, /Thanks for subscribing!/);
    await signup({ email: "bot@example.com", landingPageId: page.id, website: "spam" });
    // Company B's own page cannot be credited through company A's form.
    const theirs = (await s.call("POST", "/api/v1/landing-pages", { body: { name: "Theirs" } }, s.b)).body.landingPage;
    await s.call("POST", `/api/v1/landing-pages/${theirs.id}/publish`, { rawBody: "" }, s.b);
    await signup({ email: "cy@example.com", landingPageId: theirs.id });

    t.is((await s.call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage.conversionCount, 1);
    t.is((await s.call("GET", `/api/v1/landing-pages/${theirs.id}`, {}, s.b)).body.landingPage.conversionCount, 0);
    t.like((await s.call("GET", "/api/v1/subscribers/ann%40example.com")).body.subscriber, { firstName: "Ann" });
    t.is((await s.call("GET", "/api/v1/subscribers/bot%40example.com")).status, 404);
  });

  test(name("stats count people's views and signups by the hour over a period, crawlers apart, for the page's own company only"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Waitlist" } })).body.list;
    const form = (await s.call("POST", "/api/v1/forms", { body: { name: "Waitlist", listIds: [list.id] } })).body.form;
    const page = (await s.call("POST", "/api/v1/landing-pages", { body: { name: "Waitlist", template: "waitlist" } })).body.landingPage;
    const blocks = page.content.blocks.map((block: { type: string }) => (block.type === "form" ? { ...block, formId: form.id } : block));
    t.is((await s.call("POST", `/api/v1/landing-pages/${page.id}/publish`, { body: { content: { blocks } } })).status, 200);
    const stats = (query = "", company?: CompanyFixture) => s.call("GET", `/api/v1/landing-pages/${page.id}/stats${query}`, {}, company);

    // 10:00: two people, a crawler, a HEAD request and a signup; 12:00: one more person.
    await s.visit(page.publicUrl);
    await s.visit(page.publicUrl);
    await s.visit(page.publicUrl, { agent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
    await s.visit(page.publicUrl, { method: "HEAD" });
    const signup = await s.visit(`${s.api.server.url}/api/v1/forms/${form.id}`, {
      method: "POST",
      body: new URLSearchParams({ email: "ann@example.com", landingPageId: page.id }),
    });
    t.true(signup.status < 400, signup.text);
    s.api.clock.advance(2 * 60 * 60 * 1000);
    await s.visit(page.publicUrl);

    const day = await stats("?period=24h");
    t.is(day.status, 200, JSON.stringify(day.body));
    t.like(day.body, {
      success: true,
      landingPageId: page.id,
      period: { name: "24h", start: "2026-11-21T12:00:00.000Z", end: "2026-11-22T12:00:00.000Z" },
      includeBots: false,
      stats: { views: 3, botViews: 1, conversions: 1, conversionRate: 33.33 },
      granularity: "hour",
    });
    t.is(day.body.series.length, 25, "every hour of the window, empty ones too");
    t.deepEqual(day.body.series[22], { start: "2026-11-22T10:00:00.000Z", views: 2, botViews: 1, conversions: 1 });
    t.deepEqual(day.body.series[23], { start: "2026-11-22T11:00:00.000Z", views: 0, botViews: 0, conversions: 0 });
    t.deepEqual(day.body.series[24], { start: "2026-11-22T12:00:00.000Z", views: 1, botViews: 0, conversions: 0 });
    t.like((await stats("?period=24h&includeBots=true")).body, { includeBots: true, stats: { views: 4, botViews: 1, conversions: 1, conversionRate: 25 } });

    const range = (await stats("?start=2026-11-22T10:00:00Z&end=2026-11-22T11:00:00Z")).body;
    t.like(range, { period: { name: "custom" }, stats: { views: 2, conversions: 1 }, granularity: "hour" });
    t.is(range.series.length, 2);

    const month = (await stats()).body;
    t.like(month, { period: { name: "30d" }, granularity: "day", stats: { views: 3, botViews: 1, conversions: 1 } });
    t.is(month.series.length, 31);
    t.deepEqual(month.series.at(-1), { start: "2026-11-22T00:00:00.000Z", views: 3, botViews: 1, conversions: 1 });
    t.is((await s.call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage.viewCount, 3, "the page's own counter is people's");

    t.like((await stats("?start=2026-11-22T10:00:00Z")).body, { success: false, error: "start and end must be used together" });
    t.is((await stats("?start=2026-11-22T10:00:00Z")).status, 400);
    t.is((await stats("?start=2026-06-01T00:00:00Z&end=2026-11-22T00:00:00Z")).status, 400, "at most 90 days");
    t.is((await stats("?period=2y")).status, 422);
    t.is((await stats("?includeBots=maybe")).status, 422);
    const theirs = await stats("", s.b);
    t.is(theirs.status, 404);
    t.is(theirs.body.error, "Landing page not found");
  });

  test(name("render the stored page or unsaved content as visitors would get it, saving and counting nothing"), async (t) => {
    const s = await session(t, dialect);
    const page = (await s.call("POST", "/api/v1/landing-pages", { body: { name: "Launch", template: "launch" } })).body.landingPage;
    const stored = await s.call("POST", `/api/v1/landing-pages/${page.id}/render`, { rawBody: "" });
    t.is(stored.status, 200, JSON.stringify(stored.body));
    t.is(stored.body.landingPageId, page.id);
    t.regex(stored.body.html, /^<!doctype html>/);
    t.regex(stored.body.html, /Preview: this page is not published/);

    const content = { seo: { title: "Soon <here>" }, blocks: [{ id: "h", type: "heading", slot: "hero", text: "Almost <there>" }, footer] };
    const unsaved = await s.call("POST", `/api/v1/landing-pages/${page.id}/render`, { body: { content } });
    t.is(unsaved.status, 200);
    t.regex(unsaved.body.html, /<title>Soon &lt;here&gt;<\/title>/);
    t.regex(unsaved.body.html, /<h1>Almost &lt;there&gt;<\/h1>/);
    t.deepEqual((await s.call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage.content, page.content, "nothing saved");

    await s.call("POST", `/api/v1/landing-pages/${page.id}/publish`, { rawBody: "" });
    const live = await s.call("POST", `/api/v1/landing-pages/${page.id}/render`, { rawBody: "" });
    t.notRegex(live.body.html, /Preview: this page is not published|noindex/);
    t.is((await s.call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage.viewCount, 0, "rendering is no view");

    const twoFooters = await s.call("POST", `/api/v1/landing-pages/${page.id}/render`, { body: { content: { blocks: [footer, { ...footer, id: "f2" }] } } });
    t.is(twoFooters.status, 400);
    t.is(twoFooters.body.error, "content.blocks must contain exactly one footer block");
    t.is((await s.call("POST", `/api/v1/landing-pages/${page.id}/render`, { body: { content: { blocks: "none" } } })).status, 422);
    t.is((await s.call("POST", `/api/v1/landing-pages/${page.id}/render`, { rawBody: "" }, s.b)).status, 404);
  });
}
