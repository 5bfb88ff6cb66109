import { request } from "node:http";
import test, { type ExecutionContext } from "ava";
import { NodeDnsResolver } from "../../../adapters/dns/node-dns-resolver.js";
import { DnsResolver } from "../../../core/ports/dns-resolver.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { startDnsServer, type TestDnsServer } from "../../helpers/dns-server.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const footer = { id: "footer", type: "footer", slot: "footer", text: "© Acme" };

interface Session {
  readonly api: ApiFixture;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  readonly dns: TestDnsServer;
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): Promise<JsonResponse>;
  /** A visitor's GET with the Host a custom domain gives (the server listens on loopback). */
  visit(host: string, path: string, agent?: string): Promise<{ status: number; text: string }>;
  /** A published page with the heading given. */
  page(heading: string, company?: CompanyFixture, publish?: boolean): Promise<{ id: string; slug: string }>;
}

/** The real app, its DNS lookups sent to a DNS server on loopback. */
async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const dns = await startDnsServer();
  t.teardown(() => dns.close());
  api.runtime.container.rebind<DnsResolver>(DnsResolver).toConstantValue(new NodeDnsResolver({ servers: [dns.address], timeoutMs: 1000, tries: 1 }));
  const a = await createCompanyFixture(api.runtime.container, { name: "Acme" });
  const b = await createCompanyFixture(api.runtime.container, { name: "Beta" });
  const paced = await pacedCaller(api, a);
  const call: Session["call"] = (method, path, options = {}, company = a) =>
    company === a ? paced(method, path, options) : api.call(method, path, { key: company.ownerKey, ...options });
  const server = new URL(api.server.url);
  return {
    api,
    a,
    b,
    dns,
    call,
    visit: (host, path, agent = BROWSER) =>
      new Promise((resolve, reject) => {
        const sent = request({ host: server.hostname, port: server.port, path, headers: { host, "user-agent": agent } }, (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
        });
        sent.on("error", reject);
        sent.end();
      }),
    async page(heading, company = a, publish = true) {
      const blocks = [{ id: "h", type: "heading", slot: "hero", text: heading }, footer];
      const created = await call("POST", "/api/v1/landing-pages", { body: { name: heading, content: { blocks } } }, company);
      if (created.status !== 200) throw new Error(JSON.stringify(created.body));
      const { id, slug } = created.body.landingPage;
      if (publish) await call("POST", `/api/v1/landing-pages/${id}/publish`, { rawBody: "" }, company);
      return { id, slug };
    },
  };
}

type RecordView = { purpose: string; type: string; name: string; value: string; required: boolean; status: string | null };

/** Publishes the domain's records as its owner would (only the purposes named). */
function publish(dns: TestDnsServer, records: RecordView[], purposes = ["ownership", "routing"]): void {
  for (const record of records.filter((r) => purposes.includes(r.purpose))) {
    const entry = dns.zone.get(record.name) ?? {};
    if (record.type === "TXT") entry.txt = [...(entry.txt ?? []), record.value];
    else entry.cname = record.value;
    dns.zone.set(record.name, entry);
  }
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: landing page domains ${title}`;

  test(name("a page's own domain is claimed, verified through DNS, served at / and taken down"), async (t) => {
    const s = await session(t, dialect);
    const page = await s.page("Spring launch");
    const claimed = await s.call("POST", `/api/v1/landing-pages/${page.id}/domain`, { body: { domain: " Launch.Acme.TEST " } });
    t.is(claimed.status, 200, JSON.stringify(claimed.body));
    t.is(claimed.body.landingPage.id, page.id);
    const domain = claimed.body.domain;
    t.like(domain, {
      domain: "launch.acme.test",
      landingPageId: page.id,
      status: "pending",
      verified: false,
      url: "https://launch.acme.test/",
      verifiedAt: null,
    });
    t.regex(domain.id, /^ldom_/);
    t.deepEqual(
      domain.records.map((r: RecordView) => [r.purpose, r.type, r.name, r.required, r.status]),
      [
        ["ownership", "TXT", "_lc-verify.launch.acme.test", true, null],
        ["routing", "CNAME", "launch.acme.test", false, null],
      ],
    );
    t.regex(domain.records[0].value, /^lc-verify=[\w-]{20,}$/);
    t.is(domain.records[1].value, "lifecycle.test");
    t.notRegex((await s.visit("launch.acme.test", "/")).text, /Spring launch/, "not served before it is verified");

    const early = await s.call("POST", `/api/v1/landing-pages/${page.id}/domain/verify`);
    t.like(early.body.domain, { status: "pending", verified: false });
    t.like(early.body.domain.records[0], { status: "missing", problem: "no TXT record at _lc-verify.launch.acme.test" });

    // The TXT record proves it; the CNAME is not needed to verify (an apex reaches the service another way).
    publish(s.dns, domain.records, ["ownership"]);
    const verified = await s.call("POST", `/api/v1/landing-pages/${page.id}/domain/verify`);
    t.like(verified.body.domain, { status: "verified", verified: true, verifiedAt: s.api.clock.now().toISOString() });
    t.deepEqual(
      verified.body.domain.records.map((r: RecordView) => r.status),
      ["verified", "missing"],
    );
    const served = await s.visit("launch.acme.test", "/");
    t.is(served.status, 200);
    t.regex(served.text, /<h1>Spring launch<\/h1>/);
    t.is((await s.visit("LAUNCH.acme.test", "/", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).status, 200);
    t.is((await s.visit("launch.acme.test", "/other")).status, 404, "a page's domain serves the page alone");
    t.is((await s.call("GET", `/api/v1/landing-pages/${page.id}`)).body.landingPage.viewCount, 1, "a person's visit is a view, a crawler's is not");

    const again = await s.call("POST", `/api/v1/landing-pages/${page.id}/domain`, { body: { domain: "launch.acme.test" } });
    t.like(again.body.domain, { id: domain.id, status: "verified" });
    t.is(again.body.domain.records[0].value, domain.records[0].value, "claimed again: the same token");

    // Another company cannot take it, nor may anyone claim the service's own host.
    const theirs = await s.page("Theirs", s.b);
    const taken = await s.call("POST", `/api/v1/landing-pages/${theirs.id}/domain`, { body: { domain: "launch.acme.test" } }, s.b);
    t.deepEqual([taken.status, taken.body], [409, { success: false, error: "The domain launch.acme.test is already connected to another workspace" }]);
    t.is((await s.call("POST", `/api/v1/landing-pages/${page.id}/domain`, { body: { domain: "launch.acme.test" } }, s.b)).status, 404);
    for (const own of ["lifecycle.test", "pages.lifecycle.test"]) {
      const refused = await s.call("POST", `/api/v1/landing-pages/${page.id}/domain`, { body: { domain: own } });
      t.deepEqual([refused.status, refused.body.error], [400, `${own} belongs to this service; use a domain of your own`]);
    }
    t.is((await s.call("POST", `/api/v1/landing-pages/${page.id}/domain`, { body: { domain: "https://x.test/" } })).status, 422);
    t.is((await s.call("POST", "/api/v1/landing-pages/lp_missing/domain", { body: { domain: "x.acme.test" } })).status, 404);

    await s.call("POST", `/api/v1/landing-pages/${page.id}/unpublish`, { rawBody: "" });
    t.is((await s.visit("launch.acme.test", "/")).status, 404, "an unpublished page is gone from its domain at once");
    await s.call("POST", `/api/v1/landing-pages/${page.id}/publish`, { rawBody: "" });
    t.is((await s.visit("launch.acme.test", "/")).status, 200);

    const removed = await s.call("DELETE", `/api/v1/landing-pages/${page.id}/domain`);
    t.deepEqual([removed.status, removed.body.domain, removed.body.landingPage.id], [200, null, page.id]);
    t.notRegex((await s.visit("launch.acme.test", "/")).text, /Spring launch/, "no longer served on the domain");
    const twice = await s.call("DELETE", `/api/v1/landing-pages/${page.id}/domain`);
    t.deepEqual([twice.status, twice.body.error], [404, "Custom domain not found"]);
    t.is((await s.call("POST", `/api/v1/landing-pages/${page.id}/domain/verify`)).status, 404);
  });

  test(name("the company's domain serves each published page by its slug; only one workspace verifies a name"), async (t) => {
    const s = await session(t, dialect);
    const live = await s.page("Live page");
    const draft = await s.page("Draft page", s.a, false);
    const claimed = await s.call("PUT", "/api/v1/landing-pages/domain", { body: { domain: "pages.acme.test" } });
    t.is(claimed.status, 200, JSON.stringify(claimed.body));
    t.like(claimed.body, { landingPage: null, domain: { domain: "pages.acme.test", landingPageId: null, status: "pending" } });
    publish(s.dns, claimed.body.domain.records);
    const verified = await s.call("PUT", "/api/v1/landing-pages/domain", { body: { domain: "pages.acme.test", verify: true } });
    t.like(verified.body.domain, { id: claimed.body.domain.id, status: "verified" });
    t.deepEqual(
      verified.body.domain.records.map((r: RecordView) => r.status),
      ["verified", "verified"],
    );
    t.regex((await s.visit("pages.acme.test", `/${live.slug}`)).text, /<h1>Live page<\/h1>/);
    t.is((await s.visit("pages.acme.test", `/${draft.slug}`)).status, 404, "a draft is not served");
    t.is((await s.visit("pages.acme.test", "/")).status, 404);
    t.is((await s.visit("lifecycle.test", `/${live.slug}`)).status, 404, "the service's own host serves pages only at their publicUrl");

    // A page of the company may not take the company's name; another name replaces the company's.
    const clash = await s.call("POST", `/api/v1/landing-pages/${draft.id}/domain`, { body: { domain: "pages.acme.test" } });
    t.deepEqual([clash.status, clash.body.error], [409, "The domain pages.acme.test is already used by another of your landing page domains"]);

    // Two workspaces claim one name: both may, the first whose TXT record is found holds it.
    const mine = await s.call("POST", `/api/v1/landing-pages/${live.id}/domain`, { body: { domain: "shared.acme.test" } });
    const theirPage = await s.page("Theirs", s.b);
    const theirs = await s.call("POST", `/api/v1/landing-pages/${theirPage.id}/domain`, { body: { domain: "shared.acme.test" } }, s.b);
    t.is(theirs.status, 200, "a pending claim blocks no one");
    publish(s.dns, mine.body.domain.records, ["ownership"]);
    publish(s.dns, theirs.body.domain.records, ["ownership"]);
    t.like((await s.call("POST", `/api/v1/landing-pages/${theirPage.id}/domain/verify`, {}, s.b)).body.domain, { status: "verified" });
    const late = await s.call("POST", `/api/v1/landing-pages/${live.id}/domain/verify`);
    t.deepEqual([late.status, late.body.error], [409, "The domain shared.acme.test is already connected to another workspace"]);
    t.regex((await s.visit("shared.acme.test", "/")).text, /<h1>Theirs<\/h1>/);

    const moved = await s.call("POST", "/api/v1/landing-pages/domain", { body: { domain: "www.acme.test" } });
    t.like(moved.body.domain, { domain: "www.acme.test", status: "pending" });
    t.not((await s.visit("pages.acme.test", `/${live.slug}`)).status, 200, "the replaced name is served no more");
  });
}
