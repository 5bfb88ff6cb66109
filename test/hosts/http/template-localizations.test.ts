import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

/** Localized variants of a template: written per locale, chosen at render time, outdated when the default content changes. */

const NOW = "2026-11-22T10:00:00.000Z";
const WELCOME = { name: "Welcome", subject: "Welcome, {{firstName}}", blocks: [{ type: "heading", content: "Hello {{ firstName }}" }] };
const SPANISH = { subject: "Bienvenido, {{firstName}}", previewText: "Hola", blocks: [{ type: "heading", content: "Hola {{ firstName }}" }] };
const PAT = { subscriber: { email: "pat@example.com", firstName: "Pat" } };

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("variants are written per locale, chosen by a render's locale with fallbacks, and marked outdated when the default changes"), async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container);
    const call = await pacedCaller(api, company);
    const template = (await call("POST", "/api/v1/templates", { body: WELCOME })).body.template;

    const es = await call("PUT", `/api/v1/templates/${template.id}/localizations/ES`, { body: SPANISH });
    t.is(es.status, 200);
    const spanish = es.body.localization;
    t.regex(spanish.id, /^tloc_/);
    t.deepEqual(es.body, {
      success: true,
      templateId: template.id,
      localization: {
        id: spanish.id,
        templateId: template.id,
        locale: "es",
        subject: SPANISH.subject,
        previewText: "Hola",
        html: null,
        blocks: SPANISH.blocks,
        source: "manual",
        syncStatus: "synced",
        createdAt: NOW,
        updatedAt: NOW,
      },
    });
    const pt = await call("PUT", `/api/v1/templates/${template.id}/localizations/pt-br`, { body: { subject: "Bem-vindo", html: "<p>Olá {{firstName}}</p>" } });
    t.like(pt.body.localization, { locale: "pt-BR", html: "<p>Olá {{firstName}}</p>", blocks: null, previewText: null });

    const render = (locale?: string) =>
      call("POST", `/api/v1/templates/${template.id}/render`, { body: { ...PAT, ...(locale === undefined ? {} : { locale }) } });
    const inSpanish = await render("es");
    t.like(inSpanish.body, { subject: "Bienvenido, Pat", previewText: "Hola", locale: "es" });
    t.true(inSpanish.body.html.includes("Hola Pat"));
    t.like((await render("es-MX")).body, { subject: "Bienvenido, Pat", locale: "es" }, "a regional locale falls back to its language");
    const inPortuguese = await render("pt-BR");
    t.like(inPortuguese.body, { subject: "Bem-vindo", locale: "pt-BR" });
    t.true(inPortuguese.body.html.includes("Olá Pat"));
    for (const fallback of ["fr", "pt", "default", undefined]) {
      const rendered = await render(fallback);
      t.like(rendered.body, { subject: "Welcome, Pat", locale: "default" }, String(fallback));
    }
    const badLocale = await render("not a locale");
    t.deepEqual([badLocale.status, badLocale.body.errors], [422, [{ path: "locale", message: "must be a locale such as es or pt-BR" }]]);

    // The detail lists the variants; changing the default content makes them outdated until rewritten.
    const detail = async () => (await call("GET", `/api/v1/templates/${template.id}`)).body.template.localizations;
    t.deepEqual(
      (await detail()).map((l: { locale: string; syncStatus: string }) => [l.locale, l.syncStatus]),
      [
        ["es", "synced"],
        ["pt-BR", "synced"],
      ],
    );
    t.is((await call("PUT", `/api/v1/templates/${template.id}`, { body: { name: "Renamed" } })).status, 200);
    t.true(
      (await detail()).every((l: { syncStatus: string }) => l.syncStatus === "synced"),
      "a new name is not new content",
    );
    api.clock.advance(60_000);
    t.is((await call("PUT", `/api/v1/templates/${template.id}`, { body: { subject: "Welcome aboard, {{firstName}}" } })).status, 200);
    t.deepEqual(
      (await detail()).map((l: { syncStatus: string }) => l.syncStatus),
      ["outdated", "outdated"],
    );
    const rewritten = await call("PUT", `/api/v1/templates/${template.id}/localizations/es`, { body: { ...SPANISH, subject: "Bienvenido a bordo" } });
    t.like(rewritten.body.localization, {
      id: spanish.id,
      subject: "Bienvenido a bordo",
      syncStatus: "synced",
      createdAt: NOW,
      updatedAt: "2026-11-22T10:01:00.000Z",
    });
    t.deepEqual(
      (await detail()).map((l: { locale: string; syncStatus: string }) => [l.locale, l.syncStatus]),
      [
        ["es", "synced"],
        ["pt-BR", "outdated"],
      ],
    );
  });

  test(name("a variant needs a subject and one body; transactional emails are localized by slug; companies and scopes are kept apart"), async (t) => {
    const api = await apiFixture(t, dialect);
    const a = await createCompanyFixture(api.runtime.container);
    const b = await createCompanyFixture(api.runtime.container);
    const call = await pacedCaller(api, a);
    const callB = await pacedCaller(api, b);
    const template = (await call("POST", "/api/v1/templates", { body: WELCOME })).body.template;
    const path = `/api/v1/templates/${template.id}/localizations/es`;

    const noSubject = await call("PUT", path, { body: { html: "<p>x</p>" } });
    t.deepEqual([noSubject.status, noSubject.body.errors], [422, [{ path: "subject", message: "is required" }]]);
    for (const body of [{ subject: "S" }, { subject: "S", html: "<p>x</p>", blocks: SPANISH.blocks }]) {
      const refused = await call("PUT", path, { body });
      t.deepEqual([refused.status, refused.body.error], [400, "Provide exactly one of html or blocks"]);
    }
    const empty = await call("PUT", path, { body: { subject: "S", blocks: [] } });
    t.deepEqual([empty.status, empty.body.error], [400, "blocks must contain at least one block"]);
    const badLocale = await call("PUT", `/api/v1/templates/${template.id}/localizations/english!`, { body: SPANISH });
    t.deepEqual([badLocale.status, badLocale.body.errors], [422, [{ path: "locale", message: "must be a locale such as es or pt-BR" }]]);
    t.is((await call("PUT", "/api/v1/templates/tpl_missing/localizations/es", { body: SPANISH })).status, 404);

    // A transactional email's content, by its slug; the share page shows a variant with ?locale=.
    const receipt = (await call("POST", "/api/v1/transactional", { body: { name: "Receipt", slug: "receipt", subject: "Receipt", html: "<p>Paid</p>" } })).body
      .transactional;
    const localized = await call("PUT", "/api/v1/templates/receipt/localizations/de", { body: { subject: "Quittung", html: "<p>Bezahlt</p>" } });
    t.like(localized.body, { templateId: receipt.emailId, localization: { locale: "de", subject: "Quittung" } });
    const shared = (await call("POST", "/api/v1/templates/receipt/share-link")).body.shareUrl;
    const german = await (await fetch(`${api.server.url}${new URL(shared).pathname}?locale=de`)).text();
    t.true(german.includes("Bezahlt"));
    t.true((await (await fetch(`${api.server.url}${new URL(shared).pathname}`)).text()).includes("Paid"));

    // Another company cannot write or read A's variants.
    for (const reference of [template.id, "receipt", receipt.id]) {
      const refused = await callB("PUT", `/api/v1/templates/${reference}/localizations/es`, { body: SPANISH });
      t.deepEqual([refused.status, refused.body.error], [404, "Template not found"], reference);
    }
    t.is((await callB("POST", `/api/v1/templates/${template.id}/render`, { body: { locale: "es" } })).status, 404);
    t.deepEqual((await call("GET", `/api/v1/templates/${receipt.emailId}`)).body.template.localizations.length, 1);

    const reader = await createMemberKeyFixture(api.runtime.container, a.companyId, { scopes: ["templates:read"] });
    const readOnly = await api.call("PUT", path, { key: reader.key, body: SPANISH });
    t.deepEqual([readOnly.status, readOnly.body.error], [403, "API key is missing required scope: templates:write"]);
  });
}
