import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { createKnex } from "../../adapters/knex/connection.js";
import { parseDatabaseUrl, redactDatabaseUrl } from "../../adapters/knex/database-url.js";
import { pendingMigrations } from "../../adapters/knex/migrate.js";
import { verifySmtpRelay } from "../../adapters/smtp/smtp-mail-transport.js";
import { loadConfig, type AppConfig } from "../config.js";
import { DEFAULT_SECRET_KEY_FILE, decodeKey } from "../secret-key.js";

/** One finding: `ok` with what was checked, or what is wrong and how to fix it. */
interface Finding {
  readonly ok: boolean;
  readonly subject: string;
  readonly text: string;
}

const ok = (subject: string, text: string): Finding => ({ ok: true, subject, text });
const wrong = (subject: string, text: string): Finding => ({ ok: false, subject, text });
const reason = (error: unknown): string => (error instanceof Error ? error.message.split("\n")[0]! : String(error));

/** Whether `path` is, or could be made as, something this process can write: it or its nearest existing ancestor is a writable directory. */
function canWriteOrCreate(path: string): boolean {
  let at = resolve(path);
  while (!existsSync(at)) {
    const parent = dirname(at);
    if (parent === at) return false;
    at = parent;
  }
  try {
    accessSync(at, constants.W_OK);
    return statSync(at).isDirectory();
  } catch {
    return false;
  }
}

/** The database answers and has every migration of this version; it is never migrated here. */
async function checkDatabase(databaseUrl: string): Promise<Finding> {
  const subject = "database";
  const shown = redactDatabaseUrl(databaseUrl);
  let target;
  try {
    target = parseDatabaseUrl(databaseUrl);
  } catch (error) {
    return wrong(subject, `${reason(error)}: set DATABASE_URL to sqlite:<path> or postgres://user:password@host:5432/name`);
  }
  if (target.dialect === "sqlite" && target.filename !== ":memory:" && !existsSync(target.filename)) {
    return wrong(subject, `the SQLite file ${target.filename} does not exist: run \`lifecycle migrate\` to create it, or fix DATABASE_URL`);
  }
  // Knex's own complaints would only repeat, out of line, what the finding says.
  const knex = createKnex(databaseUrl, { log: { warn: () => undefined, error: () => undefined } });
  try {
    await knex.raw("select 1");
    const pending = await pendingMigrations(knex);
    if (pending.length > 0) {
      return wrong(
        subject,
        `${shown} answers but ${pending.length} migration(s) are pending (${pending.join(", ")}): run \`lifecycle migrate\` (every command also does it)`,
      );
    }
    return ok(subject, `${shown} answers and its schema is current`);
  } catch (error) {
    return wrong(subject, `${shown} does not answer (${reason(error)}): check that the server runs and DATABASE_URL's host, port, name and credentials`);
  } finally {
    await knex.destroy();
  }
}

/** SECRET_KEY decodes to 32 bytes; unset, the key file is usable, or can be made on first start. */
function checkSecretKey(configured: string | undefined, file = DEFAULT_SECRET_KEY_FILE): Finding {
  const subject = "SECRET_KEY";
  if (configured) {
    try {
      decodeKey(configured, "SECRET_KEY");
      return ok(subject, "a 32-byte key");
    } catch (error) {
      return wrong(subject, `${reason(error)}: make one with \`openssl rand -base64 32\` (changing it makes stored secrets unreadable)`);
    }
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") return wrong(subject, `unset, and ${file} cannot be read (${code}): give this user read access, or set SECRET_KEY`);
    // Doctor changes nothing: the key is made by the first command that needs it.
    return canWriteOrCreate(file)
      ? ok(subject, `unset: a key will be generated into ${file} on first start (set SECRET_KEY when several machines share the database)`)
      : wrong(subject, `unset, and ${file} cannot be created here: set SECRET_KEY (\`openssl rand -base64 32\`), or run from a writable directory`);
  }
  try {
    decodeKey(text, file);
    return ok(subject, `unset: using the key in ${file}`);
  } catch (error) {
    return wrong(subject, `${reason(error)}: restore the file from a backup, or set SECRET_KEY`);
  }
}

/** SMTP: the relay answers EHLO (and accepts the login); file: the directory is writable; memory: fine. */
async function checkMailUrl(mailUrl: string): Promise<Finding> {
  const subject = "MAIL_URL";
  if (mailUrl === "memory:" || mailUrl === "memory://") return ok(subject, "memory: mail is kept in the process and never leaves it (tests only)");
  if (mailUrl.startsWith("file:")) {
    const directory = mailUrl.startsWith("file://") ? new URL(mailUrl).pathname : mailUrl.slice("file:".length);
    if (!directory) return wrong(subject, "file: names no directory: use file:./data/outbox, or an smtp:// relay");
    return canWriteOrCreate(directory)
      ? ok(subject, `messages are written as .eml files into ${directory} (no mail leaves this machine)`)
      : wrong(subject, `${directory} is not a directory this user can write: create it, fix its permissions, or use an smtp:// relay`);
  }
  if (mailUrl.startsWith("smtp://") || mailUrl.startsWith("smtps://")) {
    const url = new URL(mailUrl);
    const relay = `${url.protocol}//${url.host}`;
    try {
      await verifySmtpRelay(mailUrl);
      return ok(subject, `${relay} answered EHLO${url.username ? " and accepted the login" : ""}`);
    } catch (error) {
      return wrong(
        subject,
        `${relay} did not accept a connection (${reason(error)}): check the relay's host, port, TLS (smtps:// for port 465) and credentials`,
      );
    }
  }
  return wrong(subject, `${mailUrl.split(":")[0]}: is not a mail URL: use smtp://[user:pass@]host:port, smtps://..., file:<dir> or memory:`);
}

/** BASE_URL is an absolute http(s) origin: scheme and host, no path. */
function checkBaseUrl(baseUrl: string): Finding {
  const subject = "BASE_URL";
  const fix = "give the public scheme and host only, e.g. https://mail.example.com";
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return wrong(subject, `${baseUrl} is not an absolute URL: ${fix}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return wrong(subject, `${baseUrl} is not http or https: ${fix}`);
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password)
    return wrong(subject, `${baseUrl} is not an origin (it has a path, query or credentials): ${fix}`);
  return ok(subject, `${url.origin} is an absolute origin`);
}

async function diagnose(config: AppConfig): Promise<Finding[]> {
  return [await checkDatabase(config.databaseUrl), checkSecretKey(config.secretKey), await checkMailUrl(config.mailUrl), checkBaseUrl(config.baseUrl)];
}

/** `lifecycle doctor`: checks the installation, one line per check; exit 1 when any fails. */
export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("check the database, SECRET_KEY, MAIL_URL and BASE_URL, and say what is wrong")
    .option("--database <url>", "database URL (overrides DATABASE_URL)")
    .action(async (flags: { database?: string }) => {
      let findings: Finding[];
      try {
        findings = await diagnose(loadConfig(process.env, { databaseUrl: flags.database }));
      } catch (error) {
        findings = [wrong("configuration", `${reason(error)}: fix the variable and run doctor again`)];
      }
      for (const finding of findings) process.stdout.write(`${finding.ok ? "ok" : "FAIL"} ${finding.subject}: ${finding.text}\n`);
      if (findings.some((finding) => !finding.ok)) process.exitCode = 1;
    });
}
