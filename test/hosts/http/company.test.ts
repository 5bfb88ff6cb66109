import test, { type ExecutionContext } from "ava";
import { OperatorVerifyDomain } from "../../../core/company/operator-verify-domain.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
  patch(body: unknown): Promise<JsonResponse>;
}

/** Calls paced under the per-key limit of 20 a second. */
function paced(api: ApiFixture, key: string): Session["call"] {
  let last = 0;
  return async (method, path, options = {}) => {
    const wait = last + 60 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = Date.now();
    return api.call(method, path, { ...options, key });
  };
}

async function session(t: ExecutionContext, dialect: Dialect, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container, { name: "Acme" });
  const call = paced(fixture, company.ownerKey);
  return { api: fixture, company, call, patch: (body) => call("PATCH", `/api/v1/companies/${company.companyId}`, { body }) };
}

async function verifyDomain(s: Session, domain: string): Promise<void> {
  const result = await s.api.runtime.container.get(OperatorVerifyDomain).execute(OPERATOR, s.company.companyId, domain);
  if (result._tag === "Left") throw new Error(result.left.message);
}

const errorOf = (response: JsonResponse) => [response.status, response.body.error];

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a new company's profile: platform theme, no identities, reply defaults"), async (t) => {
    const s = await session(t, dialect);
    const got = await s.call("GET", `/api/v1/companies/${s.company.companyId}`);
    t.is(got.status, 200);
    const { resolvedEmailTheme, ...company } = got.body.company;
    t.deepEqual(company, {
      id: s.company.companyId,
      name: "Acme",
      status: "ready",
      websiteUrl: null,
      primaryColor: null,
      emailTheme: null,
      brandColors: {},
      description: null,
      companyContext: null,
      toneVoice: null,
      emailLengthPreference: null,
      valueProps: [],
      defaultSenderProfileId: null,
      defaultFromName: null,
      defaultFromEmail: null,
      defaultReplyProfileId: null,
      defaultReplyToName: null,
      defaultReplyToEmail: null,
      replyTrackingEnabled: false,
      replyTrackingDomainMode: "service",
      forwardReplies: false,
      replyRetentionDays: 30,
      createdAt: "2026-11-22T10:00:00.000Z",
    });
    t.is(resolvedEmailTheme.presetId, "default");
    t.is(resolvedEmailTheme.colors.primary, "#2563EB");
  });

  test(name("PATCH updates brand, voice and reply handling; colors are 6-digit hex (400 otherwise)"), async (t) => {
    const s = await session(t, dialect);
    const updated = await s.patch({
      name: "Acme Rockets",
      primaryColor: "#ff5500",
      brandColors: { footerTheme: { backgroundColor: "#000000", linkColor: "#FFFFFF" }, accent: "#123456" },
      description: "  Rockets for everyone ",
      companyContext: "B2C",
      toneVoice: "Playful",
      valueProps: [{ title: "Fast", description: "Very" }],
      replyTrackingEnabled: true,
      replyTrackingDomainMode: "custom",
      forwardReplies: true,
    });
    t.is(updated.status, 200);
    t.true(updated.body.success);
    const company = updated.body.company;
    t.like(company, {
      name: "Acme Rockets",
      primaryColor: "#FF5500",
      description: "Rockets for everyone",
      companyContext: "B2C",
      toneVoice: "Playful",
      replyTrackingEnabled: true,
      replyTrackingDomainMode: "custom",
      forwardReplies: true,
      emailTheme: null,
    });
    t.deepEqual(company.valueProps, [{ title: "Fast", description: "Very" }]);
    t.is(company.resolvedEmailTheme.colors.primary, "#FF5500", "primaryColor sets the theme primary");

    // brandColors are replaced wholesale; blank text clears.
    const replaced = await s.patch({ brandColors: { accent: "#654321" }, description: "", toneVoice: null });
    t.deepEqual(replaced.body.company.brandColors, { accent: "#654321" });
    t.is(replaced.body.company.description, null);
    t.is(replaced.body.company.toneVoice, null);
    t.is(replaced.body.company.companyContext, "B2C", "omitted fields are kept");

    t.deepEqual(errorOf(await s.patch({ primaryColor: "red" })), [400, "Invalid hex color for primaryColor: 'red' (use a 6-digit hex color such as #1A2B3C)"]);
    t.deepEqual(errorOf(await s.patch({ primaryColor: "#FFF" })), [
      400,
      "Invalid hex color for primaryColor: '#FFF' (use a 6-digit hex color such as #1A2B3C)",
    ]);
    t.deepEqual(errorOf(await s.patch({ emailTheme: { colors: { link: "#12345G" } } })), [
      400,
      "Invalid hex color for emailTheme.colors.link: '#12345G' (use a 6-digit hex color such as #1A2B3C)",
    ]);
    t.deepEqual(errorOf(await s.patch({ brandColors: { footerTheme: { borderColor: "blue" } } })), [
      400,
      "Invalid hex color for brandColors.footerTheme.borderColor: 'blue' (use a 6-digit hex color such as #1A2B3C)",
    ]);
    const mode = await s.patch({ replyTrackingDomainMode: "sequenzy" });
    t.is(mode.status, 422);
    t.deepEqual(mode.body.errors, [{ path: "replyTrackingDomainMode", message: "must be one of: service, custom" }]);
    t.is((await s.patch({ forwardReplies: "yes" })).status, 422);
    t.deepEqual(errorOf(await s.patch({})), [400, "No supported fields provided"]);
    t.is((await s.call("GET", `/api/v1/companies/${s.company.companyId}`)).body.company.primaryColor, "#FF5500", "refused requests change nothing");
  });

  test(name("emailTheme: partial updates merge, numbers are clamped, null resets to the platform default"), async (t) => {
    const s = await session(t, dialect);
    const first = await s.patch({
      emailTheme: { presetId: "editorial", colors: { background: "#fafafa" }, typography: { baseFontSize: 40, baseLineHeight: 0.5 } },
    });
    t.is(first.status, 200);
    t.deepEqual(first.body.company.emailTheme, {
      presetId: "editorial",
      colors: { background: "#FAFAFA" },
      typography: { baseFontSize: 22, baseLineHeight: 1 },
    });
    t.is(first.body.company.resolvedEmailTheme.layout.contentWidth, 640, "the preset's values under the overrides");

    const second = await s.patch({ emailTheme: { layout: { contentWidth: 100, baseRadius: 8 }, typography: { baseFontSize: null } } });
    t.deepEqual(second.body.company.emailTheme, {
      presetId: "editorial",
      colors: { background: "#FAFAFA" },
      typography: { baseLineHeight: 1 },
      layout: { contentWidth: 480, baseRadius: 8 },
    });
    t.is(second.body.company.resolvedEmailTheme.typography.baseFontSize, 17, "a removed override falls back to the preset");

    // The theme's own primary wins over primaryColor in the same request...
    const both = await s.patch({ primaryColor: "#111111", emailTheme: { colors: { primary: "#222222" } } });
    t.is(both.body.company.resolvedEmailTheme.colors.primary, "#222222");
    // ...and a later primaryColor sets the theme primary again.
    const later = await s.patch({ primaryColor: "#333333" });
    t.is(later.body.company.resolvedEmailTheme.colors.primary, "#333333");
    t.is(later.body.company.emailTheme.colors.primary, undefined);

    const preset = await s.patch({ emailTheme: { presetId: "neon" } });
    t.is(preset.status, 422);
    t.deepEqual(preset.body.errors, [{ path: "emailTheme.presetId", message: "must be one of: default, soft, editorial, bold" }]);
    t.is((await s.patch({ emailTheme: { typography: { baseFontSize: "big" } } })).status, 422);

    const reset = await s.patch({ emailTheme: null });
    t.is(reset.body.company.emailTheme, null);
    t.is(reset.body.company.resolvedEmailTheme.presetId, "default");
    t.is(reset.body.company.resolvedEmailTheme.layout.contentWidth, 600);
  });

  test(name("From identity: fromEmail creates or picks a profile, fromName renames, exclusive with senderProfileId"), async (t) => {
    const s = await session(t, dialect);
    const unconfigured = await s.patch({ fromEmail: "hello@acme.test" });
    t.deepEqual(errorOf(unconfigured), [
      400,
      "hello@acme.test is not on a sending domain of this company: add acme.test with POST /api/v1/sending-domains, publish its DNS records and verify it",
    ]);
    t.deepEqual(errorOf(await s.patch({ fromName: "Acme" })), [400, "fromName renames the default From profile, and there is none: give fromEmail too"]);

    await verifyDomain(s, "acme.test");
    const created = await s.patch({ fromEmail: "Hello@Acme.test" });
    t.is(created.status, 200);
    t.like(created.body.company, { defaultFromEmail: "hello@acme.test", defaultFromName: "Acme" });
    const helloId = created.body.company.defaultSenderProfileId;
    t.regex(helloId, /^sp_/);

    const named = await s.patch({ fromEmail: "news@acme.test", fromName: "Acme News" });
    t.like(named.body.company, { defaultFromEmail: "news@acme.test", defaultFromName: "Acme News" });
    const newsId = named.body.company.defaultSenderProfileId;

    // fromName alone renames the current default.
    const renamed = await s.patch({ fromName: "The Acme News" });
    t.like(renamed.body.company, { defaultSenderProfileId: newsId, defaultFromName: "The Acme News" });

    // senderProfileId picks a profile; with fromName it renames that one.
    const picked = await s.patch({ senderProfileId: helloId, fromName: "Acme Team" });
    t.like(picked.body.company, { defaultSenderProfileId: helloId, defaultFromName: "Acme Team", defaultFromEmail: "hello@acme.test" });
    // fromEmail of an existing address reuses its profile and names it.
    const reused = await s.patch({ fromEmail: "news@acme.test", fromName: "News" });
    t.like(reused.body.company, { defaultSenderProfileId: newsId, defaultFromName: "News" });

    t.deepEqual(errorOf(await s.patch({ senderProfileId: helloId, fromEmail: "hello@acme.test" })), [
      400,
      "Provide either senderProfileId or fromEmail, not both",
    ]);
    t.deepEqual(errorOf(await s.patch({ senderProfileId: "sp_nope" })), [400, "Sender profile not found: sp_nope"]);
    const badEmail = await s.patch({ fromEmail: "not-an-address" });
    t.deepEqual([badEmail.status, badEmail.body.errors], [422, [{ path: "fromEmail", message: "must be a valid email address" }]]);
    // Display names and the company name (a From name's fallback) become headers: CR, LF and NUL are refused, naming the field.
    for (const [field, value] of [
      ["fromName", "Line\nbreak"],
      ["fromName", "Acme\r\nBcc: eve@example.org"],
      ["replyToName", "Help\r"],
      ["name", "Acme\nX-Injected: 1"],
      ["fromName", "Trailing\n"],
    ] as const) {
      const refused = await s.patch({ [field]: value });
      t.deepEqual(
        [refused.status, refused.body.success, refused.body.errors],
        [422, false, [{ path: field, message: "must not contain line breaks or NUL characters" }]],
        `${field}: ${JSON.stringify(value)}`,
      );
    }

    const listed = await s.call("GET", "/api/v1/sender-profiles");
    t.is(listed.status, 200);
    t.deepEqual(
      listed.body.senderProfiles.map(
        (p: { id: string; name: string; email: string; isDefault: boolean; canSend: boolean; domain: string; domainStatus: string }) => [
          p.id,
          p.name,
          p.email,
          p.isDefault,
          p.canSend,
          p.domain,
          p.domainStatus,
        ],
      ),
      [
        [helloId, "Acme Team", "hello@acme.test", false, true, "acme.test", "verified"],
        [newsId, "News", "news@acme.test", true, true, "acme.test", "verified"],
      ],
    );
    t.is(listed.body.defaultSenderProfileId, newsId);
  });

  test(name("an address with several display names is refused until a profile is chosen by ID"), async (t) => {
    const s = await session(t, dialect);
    await verifyDomain(s, "acme.test");
    const first = (await s.patch({ fromEmail: "hi@acme.test", fromName: "One" })).body.company.defaultSenderProfileId;
    // A second profile for the same address (as the old product allowed), made directly.
    await s.api.runtime.knex("sender_profiles").insert({
      id: "sp_second",
      company_id: s.company.companyId,
      name: "Two",
      email: "hi@acme.test",
      domain_id: (await s.api.runtime.knex("sending_domains").where({ company_id: s.company.companyId }).first("id")).id,
      created_at: "2026-11-22T10:00:01.000Z",
      updated_at: "2026-11-22T10:00:01.000Z",
    });
    t.deepEqual(errorOf(await s.patch({ fromEmail: "hi@acme.test", fromName: "Three" })), [
      400,
      "hi@acme.test has several display names (One, Two): choose one with senderProfileId",
    ]);
    const chosen = await s.patch({ senderProfileId: "sp_second", fromName: "Three" });
    t.like(chosen.body.company, { defaultSenderProfileId: "sp_second", defaultFromName: "Three" });
    t.not(first, "sp_second");
  });

  test(name("Reply-To identity follows the same rules on any address"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.patch({ replyTo: "support@elsewhere.example", replyToName: "Support" });
    t.is(created.status, 200);
    t.like(created.body.company, { defaultReplyToEmail: "support@elsewhere.example", defaultReplyToName: "Support" });
    const supportId = created.body.company.defaultReplyProfileId;
    t.regex(supportId, /^rp_/);
    t.like((await s.patch({ replyToName: "Help desk" })).body.company, { defaultReplyProfileId: supportId, defaultReplyToName: "Help desk" });
    const other = await s.patch({ replyTo: "team@elsewhere.example" });
    t.like(other.body.company, { defaultReplyToName: "Acme", defaultReplyToEmail: "team@elsewhere.example" });
    t.like((await s.patch({ replyProfileId: supportId })).body.company, { defaultReplyProfileId: supportId });
    t.deepEqual(errorOf(await s.patch({ replyProfileId: supportId, replyTo: "x@y.example" })), [400, "Provide either replyProfileId or replyTo, not both"]);
    t.deepEqual(errorOf(await s.patch({ replyProfileId: "rp_nope" })), [400, "Reply profile not found: rp_nope"]);

    const listed = await s.call("GET", "/api/v1/sender-profiles");
    t.deepEqual(listed.body.senderProfiles, []);
    t.deepEqual(
      listed.body.replyProfiles.map((p: { name: string; email: string; isDefault: boolean }) => [p.name, p.email, p.isDefault]),
      [
        ["Help desk", "support@elsewhere.example", true],
        ["Acme", "team@elsewhere.example", false],
      ],
    );
    t.deepEqual(Object.keys(listed.body.replyProfiles[0]).sort(), ["createdAt", "email", "id", "isDefault", "name"]);
    t.is(listed.body.defaultReplyProfileId, supportId);
    t.is(listed.body.defaultSenderProfileId, null);
  });

  test(name("profiles are renamed and deleted by ID; the last and the default sender are kept"), async (t) => {
    const s = await session(t, dialect);
    await verifyDomain(s, "acme.test");
    const hello = (await s.patch({ fromEmail: "hello@acme.test" })).body.company.defaultSenderProfileId;
    const reply = (await s.patch({ replyTo: "help@acme.test" })).body.company.defaultReplyProfileId;

    const renamed = await s.call("PATCH", `/api/v1/sender-profiles/${hello}`, { body: { name: "Hello Team" } });
    t.is(renamed.status, 200);
    t.deepEqual(renamed.body, {
      success: true,
      renamed: true,
      senderProfile: {
        id: hello,
        name: "Hello Team",
        email: "hello@acme.test",
        domainId: renamed.body.senderProfile.domainId,
        domain: "acme.test",
        domainStatus: "verified",
        canSend: true,
        isDefault: true,
        createdAt: "2026-11-22T10:00:00.000Z",
      },
    });
    t.false((await s.call("PATCH", `/api/v1/sender-profiles/${hello}`, { body: { name: "Hello Team" } })).body.renamed);
    t.deepEqual(errorOf(await s.call("PATCH", "/api/v1/sender-profiles/sp_nope", { body: { name: "X" } })), [404, "Sender profile not found"]);
    t.is((await s.call("PATCH", `/api/v1/sender-profiles/${hello}`, { body: {} })).status, 422);
    const injected = await s.call("PATCH", `/api/v1/sender-profiles/${hello}`, { body: { name: "Hello\r\nBcc: eve@example.org" } });
    t.deepEqual([injected.status, injected.body.errors], [422, [{ path: "name", message: "must not contain line breaks or NUL characters" }]]);
    const replyRenamed = await s.call("PATCH", `/api/v1/reply-profiles/${reply}`, { body: { name: "Help" } });
    t.deepEqual(replyRenamed.body, {
      success: true,
      renamed: true,
      replyProfile: { id: reply, name: "Help", email: "help@acme.test", isDefault: true, createdAt: "2026-11-22T10:00:00.000Z" },
    });
    t.deepEqual(errorOf(await s.call("PATCH", "/api/v1/reply-profiles/rp_nope", { body: { name: "X" } })), [404, "Reply profile not found"]);

    t.deepEqual(errorOf(await s.call("DELETE", `/api/v1/sender-profiles/${hello}`)), [
      400,
      "Cannot delete the last sender profile: a company needs a From address",
    ]);
    const news = (await s.patch({ fromEmail: "news@acme.test" })).body.company.defaultSenderProfileId;
    t.deepEqual(errorOf(await s.call("DELETE", `/api/v1/sender-profiles/${news}`)), [
      400,
      "Cannot delete the default sender profile: choose another default first (PATCH /api/v1/companies/{companyId} with senderProfileId)",
    ]);
    const deleted = await s.call("DELETE", `/api/v1/sender-profiles/${hello}`);
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, senderProfileId: hello }]);
    t.deepEqual(
      (await s.call("GET", "/api/v1/sender-profiles")).body.senderProfiles.map((p: { id: string }) => p.id),
      [news],
    );
    t.deepEqual(errorOf(await s.call("DELETE", `/api/v1/sender-profiles/${hello}`)), [404, "Sender profile not found"]);
  });

  test(name("tenancy: another company's ID and profiles are 404; scopes are checked"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a.api);
    await verifyDomain(b, "bee.test");
    const bSender = (await b.patch({ fromEmail: "hi@bee.test" })).body.company.defaultSenderProfileId;
    const bReply = (await b.patch({ replyTo: "r@bee.test" })).body.company.defaultReplyProfileId;

    t.deepEqual(errorOf(await a.call("PATCH", `/api/v1/companies/${b.company.companyId}`, { body: { name: "Mine" } })), [404, "Company not found"]);
    t.deepEqual(errorOf(await a.call("GET", `/api/v1/companies/${b.company.companyId}`)), [404, "Company not found"]);
    t.deepEqual(errorOf(await a.call("PATCH", "/api/v1/companies/co_unknown", { body: { name: "Mine" } })), [404, "Company not found"]);
    t.deepEqual(errorOf(await a.call("PATCH", `/api/v1/sender-profiles/${bSender}`, { body: { name: "Mine" } })), [404, "Sender profile not found"]);
    t.deepEqual(errorOf(await a.call("PATCH", `/api/v1/reply-profiles/${bReply}`, { body: { name: "Mine" } })), [404, "Reply profile not found"]);
    t.deepEqual(errorOf(await a.call("DELETE", `/api/v1/sender-profiles/${bSender}`)), [404, "Sender profile not found"]);
    t.deepEqual(errorOf(await a.patch({ senderProfileId: bSender })), [400, `Sender profile not found: ${bSender}`]);
    t.deepEqual(errorOf(await a.patch({ fromEmail: "x@bee.test" })), [
      400,
      "x@bee.test is not on a sending domain of this company: add bee.test with POST /api/v1/sending-domains, publish its DNS records and verify it",
    ]);
    t.is((await b.call("GET", `/api/v1/companies/${b.company.companyId}`)).body.company.name, "Acme");

    const reader = await createMemberKeyFixture(a.api.runtime.container, a.company.companyId, { scopes: ["account:read"] });
    const readOnly = paced(a.api, reader.key);
    t.is((await readOnly("GET", "/api/v1/sender-profiles")).status, 200);
    const denied = await readOnly("PATCH", `/api/v1/companies/${a.company.companyId}`, { body: { name: "X" } });
    t.deepEqual(errorOf(denied), [403, "API key is missing required scope: company_profile:manage"]);
    t.is((await readOnly("DELETE", "/api/v1/sender-profiles/sp_x")).status, 403);
    t.is((await a.call("PATCH", `/v1/companies/${a.company.companyId}`, { body: { toneVoice: "Calm" } })).body.company.toneVoice, "Calm", "also under /v1");
  });
}
