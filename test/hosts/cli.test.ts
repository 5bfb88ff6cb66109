import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { type ExecutionContext } from "ava";
import { dialects } from "../helpers/databases.js";
import { call } from "../helpers/http-client.js";
import { runCli, startCli } from "../helpers/cli.js";

function workdir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-cli-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("with no configuration, serve runs on SQLite under ./data, and stops cleanly on SIGTERM", async (t) => {
  const cwd = workdir(t);
  const created = await runCli(["admin", "create-company", "--name", "Acme", "--owner-email", "boss@acme.test", "--json"], { cwd });
  t.is(created.code, 0, created.stderr);
  const { apiKey, company } = JSON.parse(created.stdout);

  const server = await startCli(["serve", "--port", "0"], { cwd });
  t.teardown(() => server.stop());
  t.regex(server.firstLine, /^listening on http:\/\/127\.0\.0\.1:\d+$/);
  t.deepEqual((await call(server.url, "GET", "/health")).body, { ok: true });
  const me = await call(server.url, "GET", "/api/v1/subscribers/me", { key: apiKey.key });
  t.deepEqual(me.body, { success: true, account: { companyId: company.id, companyName: "Acme", apiKeyType: "company" } });

  t.true(statSync(join(cwd, "data", "lifecycle.sqlite")).isFile());
  t.is(statSync(join(cwd, "data", "secret.key")).mode & 0o777, 0o600);
  t.is(await server.stop(), 0);
});

test("serve loads the email renderer before it listens, so its first sends are not shed; migrate does not load it", async (t) => {
  const cwd = workdir(t);
  const env = { LOG_LEVEL: "debug" };
  const migrated = await runCli(["migrate"], { cwd, env });
  t.is(migrated.code, 0, migrated.stderr);
  t.false(migrated.stderr.includes("email renderer loaded"));

  const server = await startCli(["serve", "--port", "0", "--no-worker"], { cwd, env });
  t.teardown(() => server.stop());
  t.is(await server.stop(), 0);
  const loaded = server
    .stderr()
    .split("\n")
    .filter((line) => line.includes("email renderer loaded"))
    .map((line) => JSON.parse(line) as { level: number; ms: number });
  t.is(loaded.length, 1, server.stderr());
  t.true(loaded[0]!.ms > 0);
});

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("admin create-company and create-api-key print exactly the contract's JSON"), async (t) => {
    const cwd = workdir(t);
    const database = await dialect.create();
    t.teardown(() => database.drop());
    const env = database.env;

    const created = await runCli(["admin", "create-company", "--name", "Acme Inc", "--owner-email", "Boss@Acme.test", "--json"], { cwd, env });
    t.is(created.code, 0, created.stderr);
    const output = JSON.parse(created.stdout);
    t.is(created.stdout.trim().split("\n").length, 1, "one JSON object and nothing else");
    t.deepEqual(Object.keys(output), ["company", "owner", "apiKey", "senderProfile"]);
    t.deepEqual(Object.keys(output.company), ["id", "name"]);
    t.is(output.company.name, "Acme Inc");
    t.deepEqual(output.owner, { id: output.owner.id, email: "boss@acme.test", role: "owner" });
    t.deepEqual(Object.keys(output.apiKey), ["id", "key", "prefix", "scopes"]);
    t.regex(output.apiKey.key, /^lcsk_[0-9A-Za-z]{38}$/);
    t.is(output.apiKey.prefix, output.apiKey.key.slice(0, 12));
    t.is(output.apiKey.scopes.length, 63);
    t.is(output.senderProfile, null);

    const marketer = await runCli(
      ["admin", "create-api-key", "--company", output.company.id, "--role", "marketer", "--email", "mia@acme.test", "--name", "Mia", "--json"],
      { cwd, env },
    );
    t.is(marketer.code, 0, marketer.stderr);
    const key = JSON.parse(marketer.stdout);
    t.deepEqual(Object.keys(key), ["apiKey", "member"]);
    t.deepEqual(key.member, { id: key.member.id, email: "mia@acme.test", role: "marketer" });
    t.is(key.apiKey.scopes.length, 59);
    t.false(key.apiKey.scopes.includes("data_exports:read"));

    const scoped = await runCli(["admin", "create-api-key", "--company", output.company.id, "--scopes", "tags:read,lists:read", "--json"], { cwd, env });
    t.is(scoped.code, 0, scoped.stderr);
    const scopedKey = JSON.parse(scoped.stdout);
    t.deepEqual(scopedKey.apiKey.scopes, ["tags:read", "lists:read"]);
    t.deepEqual(scopedKey.member, output.owner, "defaults to the owner");

    // The keys work against a server on the same database.
    const server = await startCli(["serve", "--port", "0", "--no-worker"], { cwd, env });
    t.teardown(() => server.stop());
    const listed = await call(server.url, "GET", "/api/v1/api-keys", { key: key.apiKey.key });
    t.deepEqual(
      listed.body.apiKeys.map((k: { name: string }) => k.name),
      ["Owner key", "Mia", "owner key"],
    );
    t.is(await server.stop(), 0);
  });
}

for (const dialect of dialects()) {
  test(`${dialect.name}: admin create-company --sender and verify-domain make a company able to send at once`, async (t) => {
    const cwd = workdir(t);
    const database = await dialect.create();
    t.teardown(() => database.drop());
    const env = database.env;

    const created = await runCli(
      ["admin", "create-company", "--name", "Acme", "--owner-email", "boss@acme.test", "--sender", "Hello@Mail.Acme.test", "--json"],
      { cwd, env },
    );
    t.is(created.code, 0, created.stderr);
    t.is(created.stdout.trim().split("\n").length, 1);
    const output = JSON.parse(created.stdout);
    t.deepEqual(Object.keys(output), ["company", "owner", "apiKey", "senderProfile"]);
    t.deepEqual(output.senderProfile, { id: output.senderProfile.id, email: "hello@mail.acme.test" });
    t.regex(output.senderProfile.id, /^sp_/);

    const verified = await runCli(["admin", "verify-domain", "--company", output.company.id, "--domain", "News.Acme.test"], { cwd, env });
    t.is(verified.code, 0, verified.stderr);
    t.regex(verified.stdout, /^sending domain sdom_\S+ news\.acme\.test verified by the operator\n$/);
    // Idempotent: an existing domain is marked verified again.
    t.is((await runCli(["admin", "verify-domain", "--company", output.company.id, "--domain", "news.acme.test"], { cwd, env })).code, 0);

    const server = await startCli(["serve", "--port", "0", "--no-worker"], { cwd, env });
    t.teardown(() => server.stop());
    const key = output.apiKey.key;
    const profiles = await call(server.url, "GET", "/api/v1/sender-profiles", { key });
    t.is(profiles.status, 200);
    t.like(profiles.body, { defaultSenderProfileId: output.senderProfile.id, replyProfiles: [], defaultReplyProfileId: null });
    t.like(profiles.body.senderProfiles, [
      {
        id: output.senderProfile.id,
        name: "Acme",
        email: "hello@mail.acme.test",
        domain: "mail.acme.test",
        domainStatus: "verified",
        canSend: true,
        isDefault: true,
      },
    ]);
    const domains = await call(server.url, "GET", "/api/v1/sending-domains", { key });
    t.deepEqual(
      domains.body.sendingDomains.map((d: { domain: string; status: string; verifiedBy: string }) => [d.domain, d.status, d.verifiedBy]),
      [
        ["mail.acme.test", "verified", "operator"],
        ["news.acme.test", "verified", "operator"],
      ],
    );
    // A From on the operator-verified domain is accepted by the API and can send.
    const from = await call(server.url, "PATCH", `/api/v1/companies/${output.company.id}`, {
      key,
      body: { fromEmail: "news@news.acme.test", fromName: "News" },
    });
    t.like(from.body.company, { defaultFromEmail: "news@news.acme.test", defaultFromName: "News" });
    t.is(await server.stop(), 0);
  });
}

test("operator mistakes about senders and domains go to stderr as one line", async (t) => {
  const cwd = workdir(t);
  const env = { DATABASE_URL: `sqlite:${join(cwd, "db.sqlite")}` };
  const badSender = await runCli(["admin", "create-company", "--name", "X", "--owner-email", "x@x.test", "--sender", "nope", "--json"], { cwd, env });
  t.not(badSender.code, 0);
  t.is(badSender.stdout, "");
  t.is(badSender.stderr.trim(), "error: sender must be a valid email address");
  const unknown = await runCli(["admin", "verify-domain", "--company", "co_nope", "--domain", "acme.test"], { cwd, env });
  t.not(unknown.code, 0);
  t.is(unknown.stderr.trim(), "error: Company not found: co_nope");
  const company = JSON.parse((await runCli(["admin", "create-company", "--name", "X", "--owner-email", "x@x.test", "--json"], { cwd, env })).stdout);
  t.is(company.senderProfile, null, "null without --sender");
  const badDomain = await runCli(["admin", "verify-domain", "--company", company.company.id, "--domain", "https://acme.test"], { cwd, env });
  t.not(badDomain.code, 0);
  t.is(badDomain.stderr.trim(), "error: domain must be a domain name such as example.com");
});

test("operator mistakes go to stderr as one line with a non-zero exit", async (t) => {
  const cwd = workdir(t);
  const env = { DATABASE_URL: `sqlite:${join(cwd, "db.sqlite")}` };
  const unknown = await runCli(["admin", "create-api-key", "--company", "co_nope", "--json"], { cwd, env });
  t.not(unknown.code, 0);
  t.is(unknown.stdout, "");
  t.is(unknown.stderr.trim(), "error: Company not found: co_nope");

  const badEmail = await runCli(["admin", "create-company", "--name", "X", "--owner-email", "not-an-email", "--json"], { cwd, env });
  t.not(badEmail.code, 0);
  t.is(badEmail.stderr.trim(), "error: ownerEmail must be a valid email address");

  const company = JSON.parse((await runCli(["admin", "create-company", "--name", "X", "--owner-email", "x@x.test", "--json"], { cwd, env })).stdout);
  const beyondRole = await runCli(
    ["admin", "create-api-key", "--company", company.company.id, "--role", "marketer", "--email", "m@x.test", "--scopes", "data_exports:read"],
    { cwd, env },
  );
  t.not(beyondRole.code, 0);
  t.is(beyondRole.stderr.trim(), "error: Role marketer cannot hold scope: data_exports:read");
  const badScope = await runCli(["admin", "create-api-key", "--company", company.company.id, "--scopes", "all:things"], { cwd, env });
  t.is(badScope.stderr.trim(), "error: scopes.0 is not a known scope");

  const badUrl = await runCli(["migrate"], { cwd, env: { DATABASE_URL: "mysql://x" } });
  t.not(badUrl.code, 0);
  t.is(badUrl.stderr.trim(), "error: DATABASE_URL must start with sqlite: or postgres:// (got mysql:...)");
});

for (const dialect of dialects()) {
  test(`${dialect.name}: several processes migrating one new database at once all succeed`, async (t) => {
    const cwd = workdir(t);
    const database = await dialect.create();
    t.teardown(() => database.drop());
    const runs = await Promise.all(Array.from({ length: 4 }, () => runCli(["migrate"], { cwd, env: database.env })));
    for (const run of runs) {
      t.is(run.code, 0, run.stderr);
      t.is(run.stdout, "database schema is up to date\n");
    }
    const worker = await startCli(["worker", "--concurrency", "2"], {
      cwd,
      env: { ...database.env, LOG_LEVEL: "info" },
      readyOn: "stderr",
      ready: /"msg":"worker started"/,
    });
    t.teardown(() => worker.child.kill("SIGKILL"));
    t.is(JSON.parse(worker.firstLine).concurrency, 2);
    t.is(await worker.stop(), 0);
  });
}
