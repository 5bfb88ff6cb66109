import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { type ExecutionContext } from "ava";
import knexFactory from "knex";
import { runCli } from "../helpers/cli.js";
import { dialects } from "../helpers/databases.js";
import { smtpSink } from "../helpers/smtp-sink.js";

function workdir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-doctor-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const lines = (stdout: string) => stdout.trim().split("\n");

/** A migrated SQLite installation with a working relay, key and origin; `env` changes one thing. */
async function sqliteInstallation(t: ExecutionContext, env: Record<string, string> = {}) {
  const cwd = workdir(t);
  const { port } = await smtpSink(t);
  const base = { SECRET_KEY: randomBytes(32).toString("base64"), MAIL_URL: `smtp://127.0.0.1:${port}`, BASE_URL: "https://mail.example.com" };
  const migrated = await runCli(["migrate"], { cwd, env: base });
  t.is(migrated.code, 0, migrated.stderr);
  return runCli(["doctor"], { cwd, env: { ...base, ...env } });
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: doctor: ${title}`;

  test(name("a sound installation gets one ok line per check and exit 0"), async (t) => {
    const cwd = workdir(t);
    const database = await dialect.create();
    t.teardown(() => database.drop());
    const { port } = await smtpSink(t);
    const env = {
      ...database.env,
      SECRET_KEY: randomBytes(32).toString("base64"),
      MAIL_URL: `smtp://relay:s3cret@127.0.0.1:${port}`,
      BASE_URL: "https://mail.example.com",
    };
    t.is((await runCli(["migrate"], { cwd, env })).code, 0);

    const run = await runCli(["doctor"], { cwd, env });

    t.is(run.code, 0, run.stdout + run.stderr);
    t.deepEqual(lines(run.stdout), [
      `ok database: ${database.url} answers and its schema is current`,
      "ok SECRET_KEY: a 32-byte key",
      `ok MAIL_URL: smtp://127.0.0.1:${port} answered EHLO and accepted the login`,
      "ok BASE_URL: https://mail.example.com is an absolute origin",
    ]);
  });

  test(name("pending migrations are listed, not applied"), async (t) => {
    const cwd = workdir(t);
    const database = await dialect.create();
    t.teardown(() => database.drop());
    const env = { ...database.env, MAIL_URL: "memory:" };

    const run = await runCli(["doctor"], { cwd, env });

    t.is(run.code, 1);
    const [databaseLine, ...others] = lines(run.stdout);
    if (dialect.name === "sqlite") {
      t.regex(databaseLine!, /^FAIL database: the SQLite file .* does not exist: run `lifecycle migrate` to create it/);
    } else {
      t.regex(databaseLine!, /^FAIL database: .* answers but \d+ migration\(s\) are pending \(0001-tenancy-and-api-keys, .*\): run `lifecycle migrate`/);
      const knex = knexFactory({ client: "pg", connection: database.url, pool: { min: 0, max: 1 } });
      t.teardown(() => knex.destroy());
      t.false(await knex.schema.hasTable("knex_migrations"), "doctor changed nothing");
    }
    t.deepEqual(others, [
      "ok SECRET_KEY: unset: a key will be generated into ./data/secret.key on first start (set SECRET_KEY when several machines share the database)",
      "ok MAIL_URL: memory: mail is kept in the process and never leaves it (tests only)",
      "ok BASE_URL: http://localhost:3000 is an absolute origin",
    ]);
  });
}

test("doctor: a relay that does not answer is named, with what to check, and exit 1", async (t) => {
  const port = await closedPort();
  const run = await sqliteInstallation(t, { MAIL_URL: `smtp://127.0.0.1:${port}` });
  t.is(run.code, 1);
  const [database, secret, mail, base] = lines(run.stdout);
  t.regex(database!, /^ok database: /);
  t.is(secret, "ok SECRET_KEY: a 32-byte key");
  t.is(
    mail,
    `FAIL MAIL_URL: smtp://127.0.0.1:${port} did not accept a connection (connect ECONNREFUSED 127.0.0.1:${port}): check the relay's host, port, TLS (smtps:// for port 465) and credentials`,
  );
  t.regex(base!, /^ok BASE_URL: /);
});

test("doctor: a BASE_URL that is not an absolute origin is named, with the fix, and exit 1", async (t) => {
  const noScheme = await sqliteInstallation(t, { BASE_URL: "mail.example.com" });
  t.is(noScheme.code, 1);
  t.is(
    lines(noScheme.stdout)[3],
    "FAIL BASE_URL: mail.example.com is not an absolute URL: give the public scheme and host only, e.g. https://mail.example.com",
  );
  const withPath = await sqliteInstallation(t, { BASE_URL: "https://example.com/mail" });
  t.is(withPath.code, 1);
  t.is(
    lines(withPath.stdout)[3],
    "FAIL BASE_URL: https://example.com/mail is not an origin (it has a path, query or credentials): give the public scheme and host only, e.g. https://mail.example.com",
  );
  t.deepEqual(
    lines(withPath.stdout)
      .slice(0, 3)
      .map((line) => line.split(":")[0]),
    ["ok database", "ok SECRET_KEY", "ok MAIL_URL"],
  );
});

test("doctor: a SECRET_KEY of the wrong size is named, with how to make one", async (t) => {
  const run = await sqliteInstallation(t, { SECRET_KEY: Buffer.alloc(16).toString("base64") });
  t.is(run.code, 1);
  t.is(
    lines(run.stdout)[1],
    "FAIL SECRET_KEY: SECRET_KEY must be 32 bytes in base64 (got 16 bytes): make one with `openssl rand -base64 32` (changing it makes stored secrets unreadable)",
  );
});
