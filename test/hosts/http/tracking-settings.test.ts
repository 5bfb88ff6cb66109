import test, { type ExecutionContext } from "ava";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { BASE_URL } from "../../helpers/runtime.js";
import type { RequestOptions } from "../../helpers/http-client.js";

const PATH = "/api/v1/tracking-settings";

const DEFAULTS = {
  tracking: {
    openTrackingEnabled: true,
    clickTrackingEnabled: true,
    unsubscribeTrackingEnabled: true,
    strictBotFilteringEnabled: false,
    defaultAttributionWindowHours: 72,
  },
  consent: { doubleOptInEnabled: false, doubleOptInEmailId: null },
  autoUtm: { enabled: false, settings: null },
  trackingDomain: null,
  replyTracking: { enabled: false, domainMode: "service" },
};

interface Session {
  readonly api: ApiFixture;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): ReturnType<ApiFixture["call"]>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const a = await createCompanyFixture(api.runtime.container, { name: "Acme" });
  const b = await createCompanyFixture(api.runtime.container, { name: "Beta" });
  return { api, a, b, call: (method, path, options = {}, company = a) => api.call(method, path, { key: company.ownerKey, ...options }) };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: tracking settings ${title}`;

  test(name("start at the defaults, change only what a PATCH gives, and stay with their company"), async (t) => {
    const s = await session(t, dialect);
    const initial = await s.call("GET", PATH);
    t.is(initial.status, 200);
    const replyTracking = initial.body.replyTracking;
    t.deepEqual(initial.body, { success: true, ...DEFAULTS, replyTracking });

    const patched = await s.call("PATCH", PATH, {
      body: {
        openTrackingEnabled: false,
        strictBotFilteringEnabled: true,
        defaultAttributionWindowHours: 24,
        autoUtmSettings: { source: "newsletter", medium: "email" },
      },
    });
    t.is(patched.status, 200);
    const expected = {
      ...DEFAULTS,
      replyTracking,
      tracking: { ...DEFAULTS.tracking, openTrackingEnabled: false, strictBotFilteringEnabled: true, defaultAttributionWindowHours: 24 },
      autoUtm: { enabled: false, settings: { source: "newsletter", medium: "email", campaign: null, content: null, term: null } },
    };
    t.deepEqual(patched.body, { success: true, ...expected, message: "Tracking settings updated" });
    t.deepEqual((await s.call("GET", PATH)).body, { success: true, ...expected });

    // A second PATCH keeps the first one's changes; UTM keys merge one by one, null removes one.
    const second = await s.call("PATCH", PATH, {
      body: { clickTrackingEnabled: false, autoUtmEnabled: true, doubleOptInEnabled: true, autoUtmSettings: { medium: null, campaign: "{{ subject }}" } },
    });
    t.is(second.status, 200);
    t.like(second.body, {
      tracking: { openTrackingEnabled: false, clickTrackingEnabled: false, strictBotFilteringEnabled: true, defaultAttributionWindowHours: 24 },
      consent: { doubleOptInEnabled: true, doubleOptInEmailId: null },
      autoUtm: { enabled: true, settings: { source: "newsletter", medium: null, campaign: "{{ subject }}", content: null, term: null } },
    });
    const reset = await s.call("PATCH", PATH, { body: { autoUtmSettings: null } });
    t.deepEqual(reset.body.autoUtm, { enabled: true, settings: null });

    // Reply tracking is the company profile's.
    t.is((await s.call("PATCH", `/api/v1/companies/${s.a.companyId}`, { body: { replyTrackingEnabled: !replyTracking.enabled } })).status, 200);
    t.is((await s.call("GET", PATH)).body.replyTracking.enabled, !replyTracking.enabled);

    // The other company still has the defaults.
    t.deepEqual((await s.call("GET", PATH, {}, s.b)).body, {
      success: true,
      ...DEFAULTS,
      replyTracking: (await s.call("GET", PATH, {}, s.b)).body.replyTracking,
    });
  });

  test(name("refuse an empty PATCH, wrong types, a window out of range, unknown templates and keys without the scope"), async (t) => {
    const s = await session(t, dialect);
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{}, 400, /^Provide at least one of openTrackingEnabled/],
      [{ unknownSetting: true }, 400, /^Provide at least one of/],
      [{ openTrackingEnabled: "no" }, 422, /openTrackingEnabled/],
      [{ defaultAttributionWindowHours: 0 }, 422, "Invalid request: defaultAttributionWindowHours must be between 1 and 720"],
      [{ defaultAttributionWindowHours: 721 }, 422, /between 1 and 720/],
      [{ defaultAttributionWindowHours: 1.5 }, 422, /defaultAttributionWindowHours/],
      [{ autoUtmSettings: { source: 5 } }, 422, /autoUtmSettings\.source/],
      [{ autoUtmSettings: "utm" }, 422, /autoUtmSettings/],
      [{ doubleOptInEmailId: "tpl_missing" }, 404, "Template not found"],
    ];
    for (const [body, status, error] of cases) {
      const response = await s.call("PATCH", PATH, { body });
      t.is(response.status, status, JSON.stringify(body));
      t.false(response.body.success);
      if (typeof error === "string") t.is(response.body.error, error);
      else t.regex(response.body.error, error);
    }
    t.deepEqual((await s.call("GET", PATH)).body.tracking, DEFAULTS.tracking, "nothing refused was stored");

    // Another company's template cannot be chosen.
    const template = await s.call("POST", "/api/v1/templates", { body: { name: "Confirm", subject: "Confirm", html: "<p>{{ confirmUrl }}</p>" } }, s.b);
    t.is(template.status, 200);
    t.is((await s.call("PATCH", PATH, { body: { doubleOptInEmailId: template.body.template.id } })).status, 404);
    const own = await s.call("PATCH", PATH, { body: { doubleOptInEmailId: template.body.template.id } }, s.b);
    t.is(own.body.consent.doubleOptInEmailId, template.body.template.id);

    const reader = await createMemberKeyFixture(s.api.runtime.container, s.a.companyId, { role: "marketer", scopes: ["tracking:read"] });
    t.is((await s.api.call("GET", PATH, { key: reader.key })).status, 200);
    t.is((await s.api.call("PATCH", PATH, { key: reader.key, body: { openTrackingEnabled: false } })).status, 403);
  });

  test(name("turn the open pixel and click rewriting off for emails sent afterwards"), async (t) => {
    const s = await session(t, dialect);
    const made = await s.api.runtime.container.get(SetUpOperatorSender).execute(OPERATOR, s.a.companyId, "hello@acme.example");
    if (made._tag === "Left") throw new Error(made.left.message);
    const send = async () => {
      const sent = await s.call("POST", "/api/v1/transactional/send", {
        body: { to: "ann@example.com", subject: "Hi", body: '<p><a href="https://acme.example/start">Start</a></p>' },
      });
      t.is(sent.status, 200);
      return s.api.runtime
        .knex("email_sends")
        .leftJoin("email_send_contents", "email_send_contents.email_send_id", "email_sends.id")
        .where({ id: sent.body.emailSendId })
        .first("email_sends.*", "email_send_contents.html");
    };
    const pixel = new RegExp(`${BASE_URL}/t/o/`);
    const rewritten = new RegExp(`${BASE_URL}/t/c/`);

    const tracked = await send();
    t.regex(tracked.html, pixel);
    t.regex(tracked.html, rewritten);

    t.is((await s.call("PATCH", PATH, { body: { openTrackingEnabled: false, clickTrackingEnabled: false } })).status, 200);
    const untracked = await send();
    t.notRegex(untracked.html, pixel);
    t.notRegex(untracked.html, rewritten);
    t.regex(untracked.html, /href="https:\/\/acme\.example\/start"/);
    t.deepEqual([Boolean(untracked.open_tracking), Boolean(untracked.click_tracking)], [false, false]);
    t.true(untracked.html.includes(`${BASE_URL}/u/`), "the unsubscribe link stays");

    // Only opens are back on: the pixel returns, links stay as written.
    t.is((await s.call("PATCH", PATH, { body: { openTrackingEnabled: true } })).status, 200);
    const opensOnly = await send();
    t.regex(opensOnly.html, pixel);
    t.notRegex(opensOnly.html, rewritten);
  });
}
