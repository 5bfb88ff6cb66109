import test, { type ExecutionContext } from "ava";
import { NodeDnsResolver } from "../../../adapters/dns/node-dns-resolver.js";
import { OperatorVerifyDomain } from "../../../core/company/operator-verify-domain.js";
import { DnsResolver } from "../../../core/ports/dns-resolver.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { startDnsServer, type TestDnsServer } from "../../helpers/dns-server.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

/** `/websites`: the official client's sending domains, over the same use cases and rows as `/sending-domains`. */

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  readonly dns: TestDnsServer;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, shared?: Session): Promise<Session> {
  const api = shared?.api ?? (await apiFixture(t, dialect));
  let dns = shared?.dns;
  if (!dns) {
    const server = await startDnsServer();
    dns = server;
    t.teardown(() => server.close());
    api.runtime.container.rebind<DnsResolver>(DnsResolver).toConstantValue(new NodeDnsResolver({ servers: [server.address], timeoutMs: 1000, tries: 1 }));
  }
  const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
  return { api, company, dns, call: await pacedCaller(api, company) };
}

type RecordView = { purpose: string; type: string; name: string; value: string };

function publish(dns: TestDnsServer, records: readonly RecordView[]): void {
  for (const record of records) {
    const entry = dns.zone.get(record.name) ?? {};
    if (record.type === "TXT") entry.txt = [...(entry.txt ?? []), record.value];
    else entry.cname = record.value;
    dns.zone.set(record.name, entry);
  }
}

const unchecked = { status: "not_checked", problem: null };

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a website is added, read, verified and deleted by its domain name, as the same sending domain"), async (t) => {
    const s = await session(t, dialect);
    const added = await s.call("POST", "/api/v1/websites", { body: { domain: "Mail.Acme.TEST" } });
    t.is(added.status, 200);
    const website = added.body.website;
    t.like(website, {
      domain: "mail.acme.test",
      status: "pending",
      canSend: false,
      dnsVerified: false,
      readyToSend: false,
      readiness: { readyToSend: false, reason: "Publish the records in dnsRecords, then verify the domain (POST /api/v1/websites/mail.acme.test/verify)." },
      dkim: unchecked,
      spf: unchecked,
      dmarc: unchecked,
      mailFrom: unchecked,
    });
    t.regex(website.id, /^sdom_/);
    t.like(website.dnsRecords, {
      dkimRecord: { type: "TXT", name: "lc202611._domainkey.mail.acme.test" },
      spfRecord: { type: "TXT", name: "mail.acme.test", value: "v=spf1 include:_spf.lifecycle.test ~all" },
      dmarcRecord: { type: "TXT", name: "_dmarc.mail.acme.test", value: "v=DMARC1; p=none;" },
      returnPathRecord: { type: "CNAME", name: "bounces.mail.acme.test", value: "bounces.lifecycle.test" },
    });
    t.false(JSON.stringify(added.body).includes("PRIVATE"), "the private key is never returned");

    // One domain, two names: /sending-domains shows the same record, the website's fields are additions.
    const asSendingDomain = (await s.call("GET", `/api/v1/sending-domains/${website.id}`)).body.sendingDomain;
    t.like(website, asSendingDomain);
    const duplicate = await s.call("POST", "/api/v1/websites", { body: { domain: "mail.acme.test" } });
    t.deepEqual([duplicate.status, duplicate.body.error], [409, "Sending domain already exists"]);
    const bad = await s.call("POST", "/api/v1/websites", { body: { domain: "https://acme.test/x" } });
    t.deepEqual([bad.status, bad.body.errors], [422, [{ path: "domain", message: "must be a domain name such as example.com" }]]);
    t.is((await s.call("POST", "/api/v1/websites", { body: {} })).status, 422);

    const read = await s.call("GET", "/api/v1/websites/mail.acme.test");
    t.deepEqual([read.status, read.body.ready, read.body.status], [200, false, "pending"]);
    t.deepEqual(read.body.website, website);
    t.deepEqual((await s.call("GET", `/api/v1/websites/${encodeURIComponent("MAIL.acme.test.")}`)).body.website, website, "the name as typed");
    t.deepEqual((await s.call("GET", `/api/v1/websites/${website.id}`)).body.website, website, "or its ID");
    t.deepEqual((await s.call("GET", "/api/v1/sending-domains/mail.acme.test")).body.sendingDomain, asSendingDomain, "and /sending-domains by name");

    // Nothing published yet: the check says what is missing, and why it cannot send.
    const missing = await s.call("POST", "/api/v1/websites/mail.acme.test/verify");
    t.is(missing.status, 200);
    t.like(missing.body, {
      verified: false,
      readyToSend: false,
      website: { status: "pending", dnsVerified: false, lastCheckedAt: "2026-11-22T10:00:00.000Z" },
    });
    t.deepEqual(missing.body.website.spf, { status: "missing", problem: "no TXT record at mail.acme.test" });
    t.regex(
      missing.body.website.readiness.reason,
      /^Some DNS records are not published yet \(dkim: no TXT record at lc202611\._domainkey\.mail\.acme\.test; spf: /,
    );
    t.is(missing.body.message, `mail.acme.test is not verified yet. ${missing.body.website.readiness.reason}`);

    publish(s.dns, website.records);
    const verified = await s.call("POST", "/api/v1/websites/mail.acme.test/verify");
    t.like(verified.body, {
      verified: true,
      readyToSend: true,
      message: "mail.acme.test is verified: every DNS record is published as listed, and it can send.",
      website: {
        status: "verified",
        verifiedBy: "dns",
        dnsVerified: true,
        readyToSend: true,
        readiness: { readyToSend: true, reason: null },
        dkim: { status: "verified", problem: null },
        mailFrom: { status: "verified", problem: null },
      },
    });
    t.like((await s.call("GET", `/api/v1/sending-domains/${website.id}`)).body.sendingDomain, { status: "verified", canSend: true });
    const listed = await s.call("GET", "/api/v1/websites");
    t.deepEqual(listed.body.websites, [verified.body.website]);
    t.like(await s.call("GET", "/api/v1/websites/mail.acme.test"), { body: { ready: true, status: "verified" } });

    const deleted = await s.call("DELETE", "/api/v1/websites/mail.acme.test");
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, domain: "mail.acme.test", domainId: website.id }]);
    for (const [method, path] of [
      ["GET", "/api/v1/websites/mail.acme.test"],
      ["POST", "/api/v1/websites/mail.acme.test/verify"],
      ["DELETE", "/api/v1/websites/mail.acme.test"],
      ["GET", `/api/v1/sending-domains/${website.id}`],
    ] as const) {
      const gone = await s.call(method, path);
      t.deepEqual([gone.status, gone.body], [404, { success: false, error: "Sending domain not found" }], `${method} ${path}`);
    }
    t.deepEqual((await s.call("GET", "/api/v1/websites")).body.websites, []);
  });

  test(name("a domain the operator vouched for is ready to send though its DNS is not verified"), async (t) => {
    const s = await session(t, dialect);
    const vouched = await s.api.runtime.container.get(OperatorVerifyDomain).execute(OPERATOR, s.company.companyId, "acme.test");
    if (vouched._tag === "Left") return t.fail(vouched.left.message);
    const checked = await s.call("POST", "/api/v1/websites/acme.test/verify");
    t.like(checked.body, {
      verified: false,
      readyToSend: true,
      message: "acme.test can send (verified by the operator), though not every DNS record is published as listed.",
      website: { status: "verified", verifiedBy: "operator", dnsVerified: false, readiness: { readyToSend: true, reason: null }, dkim: { status: "missing" } },
    });
  });

  test(name("tenancy: another company's website is 404 by name and by ID; scopes are checked"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a);
    const theirs = (await b.call("POST", "/api/v1/websites", { body: { domain: "bee.test" } })).body.website;
    for (const reference of ["bee.test", theirs.id]) {
      for (const [method, path] of [
        ["GET", `/api/v1/websites/${reference}`],
        ["POST", `/api/v1/websites/${reference}/verify`],
        ["DELETE", `/api/v1/websites/${reference}`],
      ] as const) {
        const response = await a.call(method, path);
        t.deepEqual([response.status, response.body.error], [404, "Sending domain not found"], `${method} ${path}`);
      }
    }
    t.deepEqual((await a.call("GET", "/api/v1/websites")).body.websites, []);
    t.is((await b.call("GET", "/api/v1/websites/bee.test")).status, 200, "still there for its own company");

    const reader = await createMemberKeyFixture(a.api.runtime.container, a.company.companyId, { role: "admin", scopes: ["account:read"] });
    const read = (method: string, path: string, options: Omit<RequestOptions, "key"> = {}) => a.api.call(method, path, { ...options, key: reader.key });
    t.is((await read("GET", "/api/v1/websites")).status, 200);
    const refused = await read("POST", "/api/v1/websites", { body: { domain: "reader.test" } });
    t.deepEqual([refused.status, refused.body.error], [403, "API key is missing required scope: senders:write"]);
    t.is((await read("DELETE", "/api/v1/websites/bee.test")).status, 403);
  });
}
