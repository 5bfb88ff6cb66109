import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import type { RequestOptions } from "../../helpers/http-client.js";

/** POST /companies: a key's person creates another company they own, and selects it with x-company-id. */

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a member creates a company they own, selects it with x-company-id, and its data is its own"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const as =
      (key: string) =>
      (method: string, path: string, options: Omit<RequestOptions, "key"> = {}) =>
        api.call(method, path, { ...options, key });
    const owner = as(acme.ownerKey);

    const created = await owner("POST", "/api/v1/companies", { body: { domain: "WWW.Beta-Labs.test" } });
    t.is(created.status, 200);
    const beta = created.body.company;
    t.regex(beta.id, /^co_/);
    t.like(beta, { name: "Beta-labs", status: "ready", websiteUrl: "https://www.beta-labs.test", defaultSenderProfileId: null });
    t.is(created.body.message, `Company 'Beta-labs' created and ready to use: select it with the header x-company-id: ${beta.id}.`);
    const named = await owner("POST", "/api/v1/companies", { body: { domain: "gamma.test", name: "Gamma Inc" } });
    t.like(named.body.company, { name: "Gamma Inc", websiteUrl: "https://gamma.test", status: "ready" });

    // The caller's companies now include both, as owner; without x-company-id the key acts in its own.
    const account = await owner("GET", "/api/v1/account");
    t.is(account.body.currentCompanyId, acme.companyId);
    t.deepEqual(account.body.companies, [
      { id: acme.companyId, name: "Acme", role: "owner" },
      { id: beta.id, name: "Beta-labs", role: "owner" },
      { id: named.body.company.id, name: "Gamma Inc", role: "owner" },
    ]);
    t.is((await owner("GET", `/api/v1/companies/${beta.id}`)).status, 404, "another company than the selected one");

    // Selected, the same key acts in the new company as its owner.
    const inBeta = await owner("GET", "/api/v1/account", { companyId: beta.id });
    t.like(inBeta.body, { currentCompanyId: beta.id, selectedCompanyId: beta.id, message: "Acting in Beta-labs as owner." });
    t.like((await owner("GET", `/api/v1/companies/${beta.id}`, { companyId: beta.id })).body.company, {
      id: beta.id,
      status: "ready",
      websiteUrl: "https://www.beta-labs.test",
    });
    t.is((await owner("POST", "/api/v1/tags", { body: { name: "beta-only" }, companyId: beta.id })).status, 200);
    t.deepEqual(
      (await owner("GET", "/api/v1/tags", { companyId: beta.id })).body.tags.map((tag: { name: string }) => tag.name),
      ["beta-only"],
    );
    t.deepEqual((await owner("GET", "/api/v1/tags")).body.tags, [], "Acme sees none of Beta's data");
    // The operator-made company has no website.
    t.like((await owner("GET", `/api/v1/companies/${acme.companyId}`)).body.company, { status: "ready", websiteUrl: null });

    // Nobody else's key can select it.
    const other = await createCompanyFixture(api.runtime.container, { name: "Other" });
    const intruder = await as(other.ownerKey)("GET", "/api/v1/tags", { companyId: beta.id });
    t.deepEqual([intruder.status, intruder.body], [403, { success: false, error: "No company selected" }]);
    const acmeMarketer = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "marketer" });
    t.is((await as(acmeMarketer.key)("GET", "/api/v1/tags", { companyId: beta.id })).status, 403, "a colleague in Acme is not a member of Beta");
  });

  test(name("the input is checked and the scope companies:manage is needed; a limited key stays limited in its new company"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const create = (body: unknown, key = acme.ownerKey) => api.call("POST", "/api/v1/companies", { key, body });

    const missing = await create({ name: "No domain" });
    t.deepEqual([missing.status, missing.body.errors], [422, [{ path: "domain", message: "is required" }]]);
    const url = await create({ domain: "https://acme.test/about" });
    t.deepEqual([url.status, url.body.errors], [422, [{ path: "domain", message: "must be a domain name such as example.com" }]]);
    t.is((await create({ domain: "acme.test", name: "" })).status, 422);
    t.is((await create({ domain: "acme.test", name: "Evil\r\nBcc: x@y.test" })).status, 422);
    t.is((await api.call("POST", "/api/v1/companies", { key: acme.ownerKey, rawBody: "{" })).status, 400);

    const reader = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "admin", scopes: ["account:read"] });
    const refused = await create({ domain: "reader.test" }, reader.key);
    t.deepEqual([refused.status, refused.body.error], [403, "API key is missing required scope: companies:manage"]);
    t.is((await api.call("POST", "/api/v1/companies", { body: { domain: "anon.test" } })).status, 401);

    const limited = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "admin", scopes: ["companies:manage", "account:read"] });
    const own = await create({ domain: "limited.test" }, limited.key);
    t.is(own.status, 200);
    const inOwn = await api.call("GET", "/api/v1/tags", { key: limited.key, companyId: own.body.company.id });
    t.deepEqual([inOwn.status, inOwn.body.error], [403, "API key is missing required scope: tags:read"], "owning the company does not widen the key");
    t.is((await api.call("GET", "/api/v1/account", { key: limited.key, companyId: own.body.company.id })).body.companies.at(-1).role, "owner");
  });
}
