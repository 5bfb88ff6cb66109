import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";

const UNAUTHORIZED = { success: false, error: "Invalid or missing API key" };

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("missing, malformed, unknown and revoked keys all get the same 401 body"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const revoked = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "admin" });
    await api.call("DELETE", `/api/v1/api-keys/${revoked.keyId}`, { key: acme.ownerKey });
    // Right format and checksum position, wrong characters: fails the checksum.
    const typo = acme.ownerKey.slice(0, -1) + (acme.ownerKey.endsWith("a") ? "b" : "a");

    for (const [label, key] of [
      ["missing", undefined],
      ["malformed", "hello"],
      ["checksum typo", typo],
      ["revoked", revoked.key],
    ] as const) {
      for (const viaHeader of [false, true]) {
        const response = await api.call("GET", "/api/v1/subscribers/me", { ...(key ? { key } : {}), viaHeader });
        t.is(response.status, 401, `${label} via ${viaHeader ? "x-api-key" : "Bearer"}`);
        t.deepEqual(response.body, UNAUTHORIZED, label);
      }
    }
    // A well-formed key that was never issued.
    const { Sha256ApiKeySecrets } = await import("../../../adapters/crypto/api-key-secrets.js");
    const stranger = new Sha256ApiKeySecrets().mint().plain;
    t.deepEqual((await api.call("GET", "/v1/api-keys", { key: stranger })).body, UNAUTHORIZED);
  });

  test(name("x-api-key works like Bearer, and /v1 like /api/v1"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const expected = { success: true, account: { companyId: acme.companyId, companyName: "Acme", apiKeyType: "company" } };
    t.deepEqual((await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey, viaHeader: true })).body, expected);
    t.deepEqual((await api.call("GET", "/v1/subscribers/me", { key: acme.ownerKey })).body, expected);
    const created = await api.call("POST", "/v1/api-keys", { key: acme.ownerKey, body: { name: "legacy" } });
    t.is(created.status, 200);
    const listed = await api.call("GET", "/api/v1/api-keys", { key: acme.ownerKey });
    t.true(listed.body.apiKeys.some((k: { name: string }) => k.name === "legacy"));
  });

  test(name("a missing scope is a 403 naming it, and marketers are capped by their role"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const marketer = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "marketer" });
    const admin = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "admin" });

    const listed = await api.call("GET", "/api/v1/api-keys", { key: marketer.key });
    t.is(listed.status, 200);
    const own = listed.body.apiKeys.find((k: { id: string }) => k.id === marketer.keyId);
    t.true(own.isCurrent);
    for (const barred of ["data_exports:read", "data_exports:write", "team:manage", "api_keys:manage"]) {
      t.false(own.scopes.includes(barred), barred);
    }
    t.is(own.permissions.currentScopeCount, 59);

    const mint = await api.call("POST", "/api/v1/api-keys", { key: marketer.key, body: {} });
    t.is(mint.status, 403);
    t.deepEqual(mint.body, { success: false, error: "API key is missing required scope: api_keys:manage" });
    const revoke = await api.call("DELETE", `/api/v1/api-keys/${admin.keyId}`, { key: marketer.key });
    t.deepEqual(revoke.body, { success: false, error: "API key is missing required scope: api_keys:manage" });
    t.is((await api.call("GET", "/api/v1/subscribers/me", { key: admin.key })).status, 200, "the admin key still works");

    const adminKeys = await api.call("GET", "/api/v1/api-keys", { key: admin.key });
    const adminOwn = adminKeys.body.apiKeys.find((k: { id: string }) => k.id === admin.keyId);
    t.true(adminOwn.scopes.includes("team:manage"));
    t.true(adminOwn.scopes.includes("data_exports:write"));
  });

  test(name("x-company-id selects another company of the same person, with their role there"), async (t) => {
    const api = await apiFixture(t, dialect);
    const a = await createCompanyFixture(api.runtime.container, { name: "A", ownerEmail: "pat@example.com" });
    const b = await createCompanyFixture(api.runtime.container, { name: "B" });
    const c = await createCompanyFixture(api.runtime.container, { name: "C" });
    await createMemberKeyFixture(api.runtime.container, b.companyId, { role: "marketer", email: "pat@example.com" });

    const inB = await api.call("GET", "/api/v1/subscribers/me", { key: a.ownerKey, companyId: b.companyId });
    t.deepEqual(inB.body, { success: true, account: { companyId: b.companyId, companyName: "B", apiKeyType: "company" } });
    const keysInB = await api.call("GET", "/api/v1/api-keys", { key: a.ownerKey, companyId: b.companyId });
    t.false(
      keysInB.body.apiKeys.some((k: { id: string }) => k.id === a.ownerKeyId),
      "lists B's keys, not A's",
    );
    const mintInB = await api.call("POST", "/api/v1/api-keys", { key: a.ownerKey, companyId: b.companyId, body: {} });
    t.deepEqual(mintInB.body, { success: false, error: "API key is missing required scope: api_keys:manage" }, "a marketer in B");

    for (const companyId of [c.companyId, "co_does_not_exist"]) {
      const refused = await api.call("GET", "/api/v1/subscribers/me", { key: a.ownerKey, companyId });
      t.is(refused.status, 403);
      t.deepEqual(refused.body, { success: false, error: "No company selected" });
    }
    const own = await api.call("GET", "/api/v1/subscribers/me", { key: a.ownerKey, companyId: a.companyId });
    t.is(own.body.account.companyId, a.companyId);

    const companies = await api.call("GET", "/api/v1/companies", { key: a.ownerKey });
    t.deepEqual(companies.body, {
      success: true,
      companies: [
        { id: a.companyId, name: "A", role: "owner" },
        { id: b.companyId, name: "B", role: "marketer" },
      ],
      currentCompanyId: a.companyId,
    });
  });

  test(name("GET /account describes the caller as the official client expects"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container, { name: "Acme", ownerEmail: "boss@acme.test" });
    const limited = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "admin", scopes: ["tags:read"] });

    const account = await api.call("GET", "/api/v1/account", { key: acme.ownerKey });
    t.is(account.status, 200);
    t.true(account.body.success);
    t.is(account.body.user.email, "boss@acme.test");
    t.deepEqual(account.body.account, account.body.user);
    t.deepEqual(account.body.companies, [{ id: acme.companyId, name: "Acme", role: "owner" }]);
    t.is(account.body.currentCompanyId, acme.companyId);
    t.is(account.body.selectedCompanyId, acme.companyId);
    t.deepEqual(account.body.apiKeyPermissions.activeKey, { id: acme.ownerKeyId, type: "company" });
    t.is(account.body.apiKeyPermissions.preset, "full_access");
    t.is(account.body.apiKeyPermissions.scopes.length, 63);
    t.is(account.body.apiKeyPermissions.manageUrl, "http://lifecycle.test/api/v1/api-keys");

    // Identity routes need a key, not a scope.
    const narrow = await api.call("GET", "/api/v1/account", { key: limited.key });
    t.is(narrow.status, 200);
    t.deepEqual(narrow.body.apiKeyPermissions.scopes, ["tags:read"]);
    t.is(narrow.body.apiKeyPermissions.preset, "custom");
    t.deepEqual((await api.call("GET", "/api/v1/account")).body, UNAUTHORIZED);
  });
}
