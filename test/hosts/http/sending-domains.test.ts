import { createPublicKey, createSign, createVerify } from "node:crypto";
import test, { type ExecutionContext } from "ava";
import { NodeDnsResolver } from "../../../adapters/dns/node-dns-resolver.js";
import { ResolveSender } from "../../../core/company/resolve-sender.js";
import { DkimKeys } from "../../../core/delivery/ports.js";
import { DnsResolver } from "../../../core/ports/dns-resolver.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { startDnsServer, type TestDnsServer } from "../../helpers/dns-server.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  readonly dns: TestDnsServer;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

/** The real app, its DNS lookups sent to a DNS server on loopback. */
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
  return { api, company, dns, call: await pacedCaller(api, company, 1) };
}

type RecordView = { purpose: string; type: string; name: string; value: string; status: string | null; problem: string | null; found: string[] };
const recordOf = (response: JsonResponse, purpose: string): RecordView => response.body.sendingDomain.records.find((r: RecordView) => r.purpose === purpose);

/** Publishes the records a domain lists, as the customer would. */
function publish(dns: TestDnsServer, records: RecordView[]): void {
  for (const record of records) {
    const entry = dns.zone.get(record.name) ?? {};
    if (record.type === "TXT") entry.txt = [...(entry.txt ?? []), record.value];
    else entry.cname = record.value;
    dns.zone.set(record.name, entry);
  }
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a sending domain lists its records, is verified through DNS, and its From addresses can then send"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.call("POST", "/api/v1/sending-domains", { body: { domain: " Mail.Acme.TEST " } });
    t.is(created.status, 200);
    const domain = created.body.sendingDomain;
    t.like(domain, { domain: "mail.acme.test", status: "pending", verifiedBy: null, canSend: false, verifiedAt: null, lastCheckedAt: null });
    t.regex(domain.id, /^sdom_/);
    t.is(domain.dkimSelector, "lc202611");
    t.deepEqual(
      domain.records.map((r: RecordView) => [r.purpose, r.type, r.name, r.status]),
      [
        ["dkim", "TXT", "lc202611._domainkey.mail.acme.test", null],
        ["spf", "TXT", "mail.acme.test", null],
        ["dmarc", "TXT", "_dmarc.mail.acme.test", null],
        ["return_path", "CNAME", "bounces.mail.acme.test", null],
      ],
    );
    // Targets under BASE_URL's host (http://lifecycle.test in tests).
    t.is(recordOf(created, "spf").value, "v=spf1 include:_spf.lifecycle.test ~all");
    t.is(recordOf(created, "return_path").value, "bounces.lifecycle.test");
    t.is(recordOf(created, "dmarc").value, "v=DMARC1; p=none;");
    const publicKey = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(recordOf(created, "dkim").value)![1]!;
    const key = createPublicKey({ key: Buffer.from(publicKey, "base64"), format: "der", type: "spki" });
    t.is(key.asymmetricKeyDetails?.modulusLength, 2048);
    t.false(JSON.stringify(created.body).includes("PRIVATE"), "the private key is never returned");
    const stored = await s.api.runtime.knex("sending_domains").where({ id: domain.id }).first();
    t.false(String(stored.dkim_private_key_sealed).includes("PRIVATE KEY"), "and is stored sealed");

    const duplicate = await s.call("POST", "/api/v1/sending-domains", { body: { domain: "mail.acme.test" } });
    t.deepEqual([duplicate.status, duplicate.body.error], [409, "Sending domain already exists"]);
    for (const bad of ["https://acme.test", "acme", "acme..test", "a/b.test", "-x.test"]) {
      const refused = await s.call("POST", "/api/v1/sending-domains", { body: { domain: bad } });
      t.deepEqual([refused.status, refused.body.errors], [422, [{ path: "domain", message: "must be a domain name such as example.com" }]], bad);
    }

    // A From address on a pending domain is accepted but cannot send.
    const from = await s.call("PATCH", `/api/v1/companies/${s.company.companyId}`, { body: { fromEmail: "hi@mail.acme.test", fromName: "Acme" } });
    t.is(from.status, 200);
    const pendingProfile = (await s.call("GET", "/api/v1/sender-profiles")).body.senderProfiles[0];
    t.like(pendingProfile, { domainId: domain.id, domain: "mail.acme.test", domainStatus: "pending", canSend: false, isDefault: true });
    const unsendable = await s.api.runtime.container.get(ResolveSender).execute(s.company.companyId);
    t.like(unsendable, {
      _tag: "Left",
      left: { _tag: "Conflict", message: "No verified sender: add and verify a sending domain (POST /api/v1/sending-domains), then set a From address on it" },
    });

    // Nothing published: every record missing, still pending.
    const nothing = await s.call("POST", `/api/v1/sending-domains/${domain.id}/verify`);
    t.is(nothing.status, 200);
    t.like(nothing.body.sendingDomain, { status: "pending", canSend: false, lastCheckedAt: "2026-11-22T10:00:00.000Z" });
    t.deepEqual(
      nothing.body.sendingDomain.records.map((r: RecordView) => [r.status, r.problem]),
      [
        ["missing", "no TXT record at lc202611._domainkey.mail.acme.test"],
        ["missing", "no TXT record at mail.acme.test"],
        ["missing", "no TXT record at _dmarc.mail.acme.test"],
        ["missing", "no CNAME record at bounces.mail.acme.test"],
      ],
    );

    // Wrong records: failed, with what is wrong in each.
    s.dns.zone.set("lc202611._domainkey.mail.acme.test", { txt: ["v=DKIM1; k=rsa; p=AAAA"] });
    s.dns.zone.set("mail.acme.test", { txt: ["v=spf1 include:_spf.google.com ~all", "google-site-verification=abc"] });
    s.dns.zone.set("_dmarc.mail.acme.test", { txt: ["v=DMARC1; p=reject"] });
    s.dns.zone.set("bounces.mail.acme.test", { cname: "elsewhere.example" });
    const wrong = await s.call("POST", `/api/v1/sending-domains/${domain.id}/verify`);
    t.is(wrong.body.sendingDomain.status, "failed");
    t.deepEqual(
      wrong.body.sendingDomain.records.map((r: RecordView) => [r.purpose, r.status, r.problem]),
      [
        ["dkim", "mismatch", "the DKIM record's public key (p=) is not this domain's key"],
        ["spf", "mismatch", "the SPF record does not include _spf.lifecycle.test"],
        ["dmarc", "verified", null],
        ["return_path", "mismatch", "the CNAME points to elsewhere.example instead of bounces.lifecycle.test"],
      ],
    );
    t.deepEqual(recordOf(wrong, "spf").found, ["v=spf1 include:_spf.google.com ~all", "google-site-verification=abc"]);

    // The published records (the DKIM key is longer than one TXT string): verified.
    s.dns.zone.clear();
    publish(s.dns, domain.records);
    s.api.clock.advance(60_000);
    const verified = await s.call("POST", `/api/v1/sending-domains/${domain.id}/verify`);
    t.like(verified.body.sendingDomain, {
      status: "verified",
      verifiedBy: "dns",
      canSend: true,
      verifiedAt: "2026-11-22T10:01:00.000Z",
      lastCheckedAt: "2026-11-22T10:01:00.000Z",
    });
    t.true(verified.body.sendingDomain.records.every((r: RecordView) => r.status === "verified" && r.problem === null));
    t.like((await s.call("GET", "/api/v1/sender-profiles")).body.senderProfiles[0], { domainStatus: "verified", canSend: true });

    // The send path gets the From, and delivery the opened key, which signs and verifies against the published key.
    const sender = await s.api.runtime.container.get(ResolveSender).execute(s.company.companyId);
    if (sender._tag === "Left") return t.fail(sender.left.message);
    t.deepEqual(sender.right.from, { email: "hi@mail.acme.test", name: "Acme" });
    t.is(sender.right.replyTo, null);
    const dkim = await s.api.runtime.container.get<DkimKeys>(DkimKeys).find(s.company.companyId, "mail.acme.test");
    t.like(dkim, { domainName: "mail.acme.test", keySelector: "lc202611" });
    const signature = createSign("sha256").update("message").sign(dkim!.privateKey);
    t.true(createVerify("sha256").update("message").verify(key, signature));

    const got = await s.call("GET", `/api/v1/sending-domains/${domain.id}`);
    t.deepEqual(got.body.sendingDomain, verified.body.sendingDomain);
    const listed = await s.call("GET", "/api/v1/sending-domains");
    t.deepEqual(
      listed.body.sendingDomains.map((d: { domain: string }) => d.domain),
      ["mail.acme.test"],
    );

    // A record taken down later: the next check takes the verification back.
    s.dns.zone.delete("bounces.mail.acme.test");
    s.dns.zone.set("mail.acme.test", { txt: ["v=spf1 -all"] });
    const lapsed = await s.call("POST", `/api/v1/sending-domains/${domain.id}/verify`);
    t.like(lapsed.body.sendingDomain, { status: "failed", verifiedBy: null, verifiedAt: null, canSend: false });

    // Deleting the domain keeps its profiles, which can no longer send.
    const deleted = await s.call("DELETE", `/api/v1/sending-domains/${domain.id}`);
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, domainId: domain.id }]);
    t.like((await s.call("GET", "/api/v1/sender-profiles")).body.senderProfiles[0], {
      email: "hi@mail.acme.test",
      domainId: null,
      domain: null,
      domainStatus: null,
      canSend: false,
    });
    t.deepEqual(
      [(await s.call("GET", `/api/v1/sending-domains/${domain.id}`)).status, (await s.call("DELETE", `/api/v1/sending-domains/${domain.id}`)).status],
      [404, 404],
    );
    // Added again, the domain takes its profiles back.
    const again = await s.call("POST", "/api/v1/sending-domains", { body: { domain: "mail.acme.test" } });
    t.like((await s.call("GET", "/api/v1/sender-profiles")).body.senderProfiles[0], { domainId: again.body.sendingDomain.id, domainStatus: "pending" });
  });

  test(name("ResolveSender: a requested From on a verified domain is used, any other is ignored for the default"), async (t) => {
    const s = await session(t, dialect);
    const resolve = s.api.runtime.container.get(ResolveSender);
    const domain = (await s.call("POST", "/api/v1/sending-domains", { body: { domain: "acme.test" } })).body.sendingDomain;
    publish(s.dns, domain.records);
    t.is((await s.call("POST", `/api/v1/sending-domains/${domain.id}/verify`)).body.sendingDomain.status, "verified");
    await s.call("PATCH", `/api/v1/companies/${s.company.companyId}`, {
      body: { fromEmail: "news@acme.test", fromName: "Acme News", replyTo: "help@elsewhere.example", replyToName: "Help" },
    });

    const byDefault = await resolve.execute(s.company.companyId);
    t.like(byDefault, {
      _tag: "Right",
      right: { from: { email: "news@acme.test", name: "Acme News" }, replyTo: { email: "help@elsewhere.example", name: "Help" } },
    });
    const requested = await resolve.execute(s.company.companyId, { email: "Billing@Acme.test", name: "Billing" });
    t.like(requested, { _tag: "Right", right: { from: { email: "billing@acme.test", name: "Billing" } } });
    const unnamed = await resolve.execute(s.company.companyId, { email: "news@acme.test" });
    t.like(unnamed, { _tag: "Right", right: { from: { email: "news@acme.test", name: "Acme News" } } });
    const foreign = await resolve.execute(s.company.companyId, { email: "ceo@gmail.example", name: "CEO" });
    t.like(foreign, { _tag: "Right", right: { from: { email: "news@acme.test", name: "Acme News" } } }, "ignored: not a verified domain of the company");

    // Another company's verified domain is not this one's.
    const other = await session(t, dialect, s);
    const theirs = await resolve.execute(other.company.companyId, { email: "news@acme.test" });
    t.like(theirs, { _tag: "Left", left: { _tag: "Conflict" } });
    const missing = await resolve.execute("co_unknown");
    t.like(missing, { _tag: "Left", left: { _tag: "NotFound", message: "Company not found" } });
  });

  test(name("tenancy: another company's sending domains are 404; scopes are checked"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a);
    const theirs = (await b.call("POST", "/api/v1/sending-domains", { body: { domain: "bee.test" } })).body.sendingDomain;
    for (const [method, path] of [
      ["GET", `/api/v1/sending-domains/${theirs.id}`],
      ["POST", `/api/v1/sending-domains/${theirs.id}/verify`],
      ["DELETE", `/api/v1/sending-domains/${theirs.id}`],
    ] as const) {
      const response = await a.call(method, path);
      t.deepEqual([response.status, response.body.error], [404, "Sending domain not found"], `${method} ${path}`);
    }
    t.deepEqual((await a.call("GET", "/api/v1/sending-domains")).body.sendingDomains, []);
    // The same domain may be claimed by each company on its own.
    t.is((await a.call("POST", "/api/v1/sending-domains", { body: { domain: "bee.test" } })).status, 200);
    t.is((await b.call("GET", `/api/v1/sending-domains/${theirs.id}`)).status, 200);
  });
}
