import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

/** POST /templates/{id}/localizations/sync: machine translation through a LibreTranslate-compatible service, run by the worker. */

interface TranslateRequest {
  readonly q: string[];
  readonly source: string;
  readonly target: string;
  readonly format: string;
  readonly api_key?: string;
}

/**
 * A LibreTranslate stand-in on loopback: it knows es, de and fr, and "translates" by prefixing
 * `[target]`, keeping placeholders, except in a text with LOSE, where it drops them (as a real
 * translator sometimes does).
 */
async function startTranslationService(t: ExecutionContext): Promise<{ url: string; requests: TranslateRequest[] }> {
  const requests: TranslateRequest[] = [];
  const read = async (req: IncomingMessage) => {
    let body = "";
    for await (const chunk of req) body += String(chunk);
    return JSON.parse(body) as TranslateRequest;
  };
  const server = createServer((req, res) => {
    void read(req).then((request) => {
      requests.push(request);
      res.setHeader("content-type", "application/json");
      if (req.url !== "/translate" || request.api_key !== "secret") return void res.writeHead(403).end(JSON.stringify({ error: "Invalid API key" }));
      if (!["es", "de", "fr"].includes(request.target)) return void res.writeHead(400).end(JSON.stringify({ error: `${request.target} is not supported` }));
      const translatedText = request.q.map((text) => `[${request.target}] ${text.includes("LOSE") ? text.replace(/\[\[\d+\]\]/g, "") : text}`);
      res.writeHead(200).end(JSON.stringify({ translatedText }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

const runJobs = (api: ApiFixture): Promise<number> => createWorker(api.runtime.container, { concurrency: 1 }, { push: false }).runDue();

const WELCOME = {
  name: "Welcome",
  subject: "Welcome, {{firstName}}",
  previewText: "Glad you are here",
  blocks: [
    { type: "heading", content: "Hello {{ firstName }}" },
    { type: "button", text: "Open", url: "https://acme.test/app?u={{ email }}" },
    { type: "image", src: "https://acme.test/logo.png", alt: "Logo" },
    { type: "columns", columns: [{ blocks: [{ type: "text", content: "Left" }] }, { blocks: [{ type: "divider" }] }] },
  ],
};

type Variant = { locale: string; source: string; syncStatus: string; subject: string; previewText: string | null; blocks: unknown };

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a sync translates the default content into the given locales, then refreshes outdated variants; merge tags survive"), async (t) => {
    const service = await startTranslationService(t);
    const api = await apiFixture(t, dialect, { translation: { url: service.url, apiKey: "secret" } });
    const company = await createCompanyFixture(api.runtime.container);
    const call = await pacedCaller(api, company);
    const template = (await call("POST", "/api/v1/templates", { body: WELCOME })).body.template;
    const variants = async (): Promise<Variant[]> => (await call("GET", `/api/v1/templates/${template.id}`)).body.template.localizations;

    t.is((await call("PUT", `/api/v1/templates/${template.id}/localizations/de`, { body: { subject: "Willkommen", html: "<p>Hallo</p>" } })).status, 200);
    const queued = await call("POST", `/api/v1/templates/${template.id}/localizations/sync`, { body: { locales: ["es", "ES", "es-MX"] } });
    t.deepEqual([queued.status, queued.body], [202, { success: true, templateId: template.id, queuedLocales: ["es", "es-MX"], queuedVariantCount: 2 }]);
    t.deepEqual(
      (await variants()).map((v) => v.locale),
      ["de"],
      "nothing is written before the worker runs",
    );

    t.true((await runJobs(api)) >= 1);
    const [de, es, esMx] = await variants();
    t.like(de, { locale: "de", source: "manual", syncStatus: "synced" }, "a variant not named is left alone");
    t.like(es, { locale: "es", source: "translated", syncStatus: "synced", subject: "[es] Welcome, {{firstName}}", previewText: "[es] Glad you are here" });
    t.deepEqual(es!.blocks, [
      { type: "heading", content: "[es] Hello {{ firstName }}" },
      { type: "button", text: "[es] Open", url: "https://acme.test/app?u={{ email }}" },
      { type: "image", src: "https://acme.test/logo.png", alt: "[es] Logo" },
      { type: "columns", columns: [{ blocks: [{ type: "text", content: "[es] Left" }] }, { blocks: [{ type: "divider" }] }] },
    ]);
    t.like(esMx, { locale: "es-MX", source: "translated", subject: "[es] Welcome, {{firstName}}" }, "a refused regional locale is asked in its language");
    t.true(service.requests.every((request) => request.source === "auto" && request.api_key === "secret"));
    t.deepEqual([...new Set(service.requests.map((request) => request.format))].sort(), ["html", "text"], "rich text goes as html, plain text as text");
    t.true(
      service.requests.some((request) => request.q.includes("Welcome, [[0]]")),
      "merge tags travel as placeholders",
    );

    const rendered = await call("POST", `/api/v1/templates/${template.id}/render`, {
      body: { locale: "es", subscriber: { email: "pat@example.com", firstName: "Pat" } },
    });
    t.like(rendered.body, { subject: "[es] Welcome, Pat", locale: "es" });
    t.true(rendered.body.html.includes("[es] Hello Pat"));

    // The default changes: every variant is outdated, and a sync without locales refreshes them all.
    t.is((await call("PUT", `/api/v1/templates/${template.id}`, { body: { subject: "Welcome aboard, {{firstName}}" } })).status, 200);
    t.deepEqual(
      (await variants()).map((v) => v.syncStatus),
      ["outdated", "outdated", "outdated"],
    );
    const refresh = await call("POST", `/api/v1/templates/${template.id}/localizations/sync`, { body: {} });
    t.deepEqual(refresh.body.queuedLocales, ["de", "es", "es-MX"]);
    await runJobs(api);
    t.deepEqual(
      (await variants()).map((v) => [v.locale, v.source, v.syncStatus, v.subject]),
      [
        ["de", "translated", "synced", "[de] Welcome aboard, {{firstName}}"],
        ["es", "translated", "synced", "[es] Welcome aboard, {{firstName}}"],
        ["es-MX", "translated", "synced", "[es] Welcome aboard, {{firstName}}"],
      ],
    );
    const nothing = await call("POST", `/api/v1/templates/${template.id}/localizations/sync`);
    t.deepEqual(nothing.body, { success: true, templateId: template.id, queuedLocales: [], queuedVariantCount: 0 }, "all synced: nothing to do");
  });

  test(name("a lost merge tag keeps the text as written; an unsupported locale is given up; input, tenancy and scopes are checked"), async (t) => {
    const service = await startTranslationService(t);
    const api = await apiFixture(t, dialect, { translation: { url: service.url, apiKey: "secret" } });
    const a = await createCompanyFixture(api.runtime.container);
    const b = await createCompanyFixture(api.runtime.container);
    const call = await pacedCaller(api, a);
    const callB = await pacedCaller(api, b);
    const template = (await call("POST", "/api/v1/templates", { body: { name: "T", subject: "LOSE {{firstName}}", html: "<p>Hi {{firstName}}</p>" } })).body
      .template;
    const sync = (body: unknown, caller = call, reference = template.id) => caller("POST", `/api/v1/templates/${reference}/localizations/sync`, { body });

    t.is((await sync({ locales: ["fr", "xx"] })).status, 202);
    await runJobs(api);
    const variants = (await call("GET", `/api/v1/templates/${template.id}`)).body.template.localizations;
    t.deepEqual(
      variants.map((v: Variant & { html: string }) => [v.locale, v.subject, v.html]),
      [["fr", "LOSE {{firstName}}", "[fr] <p>Hi {{firstName}}</p>"]],
      "fr: the subject whose merge tag was lost stays as written; xx: refused by the service, no variant",
    );
    const dead = await api.runtime.knex("jobs").where({ type: "emails.translate_template", status: "dead" });
    t.is(dead.length, 1, "the refusal is not retried");

    const empty = await sync({ locales: [] });
    t.deepEqual([empty.status, empty.body.errors], [422, [{ path: "locales", message: "must contain at least 1 locales" }]]);
    const bad = await sync({ locales: ["english please"] });
    t.deepEqual([bad.status, bad.body.errors], [422, [{ path: "locales.0", message: "must be a locale such as es or pt-BR" }]]);
    const theirs = await sync({ locales: ["es"] }, callB);
    t.deepEqual([theirs.status, theirs.body.error], [404, "Template not found"]);
    t.is((await sync({}, call, "tpl_missing")).status, 404);
    const reader = await createMemberKeyFixture(api.runtime.container, a.companyId, { scopes: ["templates:read"] });
    const readOnly = await api.call("POST", `/api/v1/templates/${template.id}/localizations/sync`, { key: reader.key, body: {} });
    t.deepEqual([readOnly.status, readOnly.body.error], [403, "API key is missing required scope: templates:write"]);
  });

  test(name("without a translation service a sync is refused with a clear 400 and nothing is queued"), async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container);
    const call = await pacedCaller(api, company);
    const template = (await call("POST", "/api/v1/templates", { body: WELCOME })).body.template;
    const refused = await call("POST", `/api/v1/templates/${template.id}/localizations/sync`, { body: { locales: ["es"] } });
    t.deepEqual(
      [refused.status, refused.body],
      [
        400,
        {
          success: false,
          error:
            "Automatic translation is not configured on this server (TRANSLATION_URL): write each variant with PUT /api/v1/templates/{templateId}/localizations/{locale}",
          code: "translation_not_configured",
        },
      ],
    );
    t.is((await api.runtime.knex("jobs").where({ type: "emails.translate_template" })).length, 0);
  });
}
