import { createHash } from "node:crypto";
import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { IssueApiKey } from "../../../core/api-keys/issue-api-key.js";
import { ApiKeyUsage } from "../../../core/api-keys/ports.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { call } from "../../helpers/http-client.js";
import { listen, startTestRuntime } from "../../helpers/runtime.js";

const KEY_FORMAT = /^lcsk_[0-9A-Za-z]{38}$/;

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a key is created once in plain text, listed as metadata, and revoked for good"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container, { name: "Acme" });

    const created = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { name: "CI deploy" } });
    t.is(created.status, 200);
    t.true(created.body.success);
    const apiKey = created.body.apiKey;
    t.regex(apiKey.key, KEY_FORMAT);
    t.is(apiKey.prefix, apiKey.key.slice(0, 12));
    t.is(apiKey.name, "CI deploy");
    t.is(apiKey.type, "company");
    t.false(apiKey.isCurrent);
    t.deepEqual(apiKey.permissions, {
      preset: "full_access",
      fullAccess: true,
      selectedScopeCount: 63,
      currentScopeCount: 63,
      description: "Full access: every permission the key's team role allows",
    });
    t.is(created.body.message, "API key created. Copy it now: it will not be shown again.");
    t.is(created.body.instructions.envVariable, "SEQUENZY_API_KEY");
    t.is(created.body.instructions.example, `export SEQUENZY_API_KEY=${apiKey.key}`);
    t.is(typeof created.body.instructions.note, "string");

    // The new key works at once.
    const me = await api.call("GET", "/api/v1/subscribers/me", { key: apiKey.key });
    t.deepEqual(me.body, { success: true, account: { companyId: acme.companyId, companyName: "Acme", apiKeyType: "company" } });

    // Listing shows metadata only, never the key or its hash.
    const listed = await api.call("GET", "/api/v1/api-keys", { key: apiKey.key });
    t.is(listed.status, 200);
    t.deepEqual(
      listed.body.apiKeys.map((k: { id: string; isCurrent: boolean }) => [k.id, k.isCurrent]),
      [
        [acme.ownerKeyId, false],
        [apiKey.id, true],
      ],
    );
    const hash = createHash("sha256").update(apiKey.key).digest("hex");
    const text = JSON.stringify(listed.body);
    t.false(text.includes(apiKey.key));
    t.false(text.includes(hash));
    t.false("key" in listed.body.apiKeys[1]);

    // Only the SHA-256 hash is stored.
    const row = await api.runtime.knex("api_keys").where({ id: apiKey.id }).first();
    t.is(row.key_hash, hash);
    t.false(JSON.stringify(row).includes(apiKey.key));

    const revoked = await api.call("DELETE", `/api/v1/api-keys/${apiKey.id}`, { key: acme.ownerKey });
    t.is(revoked.status, 200);
    t.true(revoked.body.success);
    t.is(revoked.body.apiKey.id, apiKey.id);
    t.false("key" in revoked.body.apiKey);
    t.is(revoked.body.message, "API key revoked. It can no longer be used.");

    const after = await api.call("GET", "/api/v1/subscribers/me", { key: apiKey.key });
    t.is(after.status, 401);
    t.deepEqual(after.body, { success: false, error: "Invalid or missing API key" });
    const relisted = await api.call("GET", "/api/v1/api-keys", { key: acme.ownerKey });
    t.deepEqual(
      relisted.body.apiKeys.map((k: { id: string }) => k.id),
      [acme.ownerKeyId],
    );

    // Revocation is permanent: the key is gone for this route too.
    const again = await api.call("DELETE", `/api/v1/api-keys/${apiKey.id}`, { key: acme.ownerKey });
    t.is(again.status, 404);
    t.deepEqual(again.body, { error: "API key not found" });
  });

  test(name("a key revoked through one server is refused by another on the same database"), async (t) => {
    const api = await apiFixture(t, dialect);
    const other = await startTestRuntime(api.database);
    const otherServer = await listen(other);
    t.teardown(async () => {
      await otherServer.close();
      await other.close();
    });
    const acme = await createCompanyFixture(api.runtime.container);
    const second = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "admin" });

    t.is((await call(otherServer.url, "GET", "/api/v1/subscribers/me", { key: second.key })).status, 200);
    t.is((await api.call("DELETE", `/api/v1/api-keys/${second.keyId}`, { key: acme.ownerKey })).status, 200);
    const refused = await call(otherServer.url, "GET", "/api/v1/subscribers/me", { key: second.key });
    t.is(refused.status, 401);
    t.deepEqual(refused.body, { success: false, error: "Invalid or missing API key" });
  });

  test(name("a key of one company gets 404 for another company's keys and cannot touch them"), async (t) => {
    const api = await apiFixture(t, dialect);
    const a = await createCompanyFixture(api.runtime.container, { name: "A" });
    const b = await createCompanyFixture(api.runtime.container, { name: "B" });

    const deleted = await api.call("DELETE", `/api/v1/api-keys/${b.ownerKeyId}`, { key: a.ownerKey });
    t.is(deleted.status, 404);
    t.deepEqual(deleted.body, { error: "API key not found" });
    const renamed = await api.call("PATCH", `/api/v1/api-keys/${b.ownerKeyId}`, { key: a.ownerKey, body: { name: "mine now" } });
    t.is(renamed.status, 404);

    const listed = await api.call("GET", "/api/v1/api-keys", { key: a.ownerKey });
    t.deepEqual(
      listed.body.apiKeys.map((k: { id: string }) => k.id),
      [a.ownerKeyId],
    );
    const bList = await api.call("GET", "/api/v1/api-keys", { key: b.ownerKey });
    t.is(bList.status, 200);
    t.deepEqual(
      bList.body.apiKeys.map((k: { id: string; name: string }) => [k.id, k.name]),
      [[b.ownerKeyId, "Owner key"]],
    );
  });

  test(name("a key never receives a scope its creator lacks"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const limited = await createMemberKeyFixture(api.runtime.container, acme.companyId, {
      role: "admin",
      scopes: ["account:read", "api_keys:manage"],
    });

    const broader = await api.call("POST", "/api/v1/api-keys", { key: limited.key, body: { scopes: ["subscribers:read", "account:read", "analytics:read"] } });
    t.is(broader.status, 403);
    t.deepEqual(broader.body, { success: false, error: "API key is missing required scope: subscribers:read, analytics:read" });

    const full = await api.call("POST", "/api/v1/api-keys", { key: limited.key, body: { preset: "read_only" } });
    t.is(full.status, 403);
    t.true(full.body.error.startsWith("API key is missing required scope: api_keys:read, team:read"));

    const narrower = await api.call("POST", "/api/v1/api-keys", { key: limited.key, body: { scopes: ["account:read"], preset: "full_access" } });
    t.is(narrower.status, 200);
    t.deepEqual(narrower.body.apiKey.scopes, ["account:read"]);
    t.deepEqual(narrower.body.apiKey.permissions, {
      preset: "custom",
      fullAccess: false,
      selectedScopeCount: 1,
      currentScopeCount: 1,
      description: "Custom selection of 1 permission",
    });

    // Nothing was created by the refused requests.
    const keys = await api.runtime.knex("api_keys").where({ company_id: acme.companyId }).count({ n: "*" });
    t.is(Number(keys[0]?.n), 3);
  });

  test(name("presets and explicit scopes, and the 422 for unknown ones"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);

    const readOnly = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { preset: "read_only" } });
    t.is(readOnly.status, 200);
    t.is(readOnly.body.apiKey.name, "Default integration");
    t.true(readOnly.body.apiKey.scopes.every((scope: string) => scope.endsWith(":read")));
    t.true(readOnly.body.apiKey.scopes.includes("data_exports:read"));
    t.is(readOnly.body.apiKey.permissions.preset, "read_only");

    const unknown = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { scopes: ["subscribers:read", "everything:all"] } });
    t.is(unknown.status, 422);
    t.false(unknown.body.success);
    t.deepEqual(unknown.body.errors, [{ path: "scopes.1", message: "is not a known scope" }]);
    t.is(unknown.body.error, "Invalid request: scopes.1 is not a known scope");

    const empty = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { scopes: [] } });
    t.is(empty.status, 422);
    t.deepEqual(empty.body.errors, [{ path: "scopes", message: "must hold at least one scope" }]);

    const badPreset = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { preset: "god_mode", name: 7 } });
    t.is(badPreset.status, 422);
    t.deepEqual(badPreset.body.errors.map((e: { path: string }) => e.path).sort(), ["name", "preset"]);

    const customWithout = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { preset: "custom" } });
    t.is(customWithout.status, 422);
    t.deepEqual(customWithout.body.errors, [{ path: "scopes", message: "is required with preset custom" }]);

    const count = await api.runtime.knex("api_keys").where({ company_id: acme.companyId }).count({ n: "*" });
    t.is(Number(count[0]?.n), 2);
  });

  test(name("PATCH renames a key and replaces its selection"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const created = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { name: "old" } });
    const id = created.body.apiKey.id;

    const patched = await api.call("PATCH", `/api/v1/api-keys/${id}`, { key: acme.ownerKey, body: { name: "new", scopes: ["tags:read"] } });
    t.is(patched.status, 200);
    t.is(patched.body.apiKey.name, "new");
    t.deepEqual(patched.body.apiKey.scopes, ["tags:read"]);
    const denied = await api.call("GET", "/api/v1/api-keys", { key: created.body.apiKey.key });
    t.deepEqual(denied.body, { success: false, error: "API key is missing required scope: api_keys:read" });

    const nothing = await api.call("PATCH", `/api/v1/api-keys/${id}`, { key: acme.ownerKey, body: {} });
    t.is(nothing.status, 400);
    t.deepEqual(nothing.body, { success: false, error: "No supported fields provided" });
  });

  test(name("a failure while creating a key is a 500 with the spec's message and no internals"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    // Routes are given their use cases when the app is built: the failing issuer goes in before that.
    const failing = await startTestRuntime(api.database);
    failing.container.unbind(IssueApiKey);
    failing.container.bind(IssueApiKey).toConstantValue({
      issue: async () => {
        throw new Error("disk on fire at /var/secret/path");
      },
    } as unknown as IssueApiKey);
    const failingServer = await listen(failing);
    t.teardown(async () => {
      await failingServer.close();
      await failing.close();
    });

    const failed = await call(failingServer.url, "POST", "/api/v1/api-keys", { key: acme.ownerKey, body: {} });
    t.is(failed.status, 500);
    t.deepEqual(failed.body, { success: false, error: "Failed to create API key" });
  });

  test(name("lastUsedAt is written at most once a minute per key"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const observer = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "admin" });
    const usage = api.runtime.container.get<ApiKeyUsage>(ApiKeyUsage);
    const useOwnerKey = async () => {
      t.is((await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey })).status, 200);
      await usage.flush();
    };
    const lastUsed = async () => {
      const listed = await api.call("GET", "/api/v1/api-keys", { key: observer.key });
      return listed.body.apiKeys.find((k: { id: string }) => k.id === acme.ownerKeyId).lastUsedAt as string | null;
    };

    t.is(await lastUsed(), null, "never used yet");
    const start = api.clock.now().toISOString();
    await useOwnerKey();
    t.is(await lastUsed(), start);
    api.clock.advance(30_000);
    await useOwnerKey();
    t.is(await lastUsed(), start, "a use within the minute is not written");
    api.clock.advance(31_000);
    await useOwnerKey();
    t.is(await lastUsed(), api.clock.now().toISOString());
  });
}
