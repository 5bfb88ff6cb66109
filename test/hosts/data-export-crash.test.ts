import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import test, { type ExecutionContext } from "ava";
import { toDbDate } from "../../adapters/knex/row-codecs.js";
import { createCompanyFixture } from "../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../helpers/api-fixture.js";
import { dialects, type Dialect } from "../helpers/databases.js";
import { FakeGcs, interceptGoogle, serveFakeGcs, serviceAccountKeyFile } from "../helpers/fake-gcs.js";
import { startS3Server } from "../helpers/s3-server.js";
import { startWorkerProcess, waitFor } from "../helpers/worker-process.js";

const SCRIPT = fileURLToPath(new URL("../helpers/export-worker-process.js", import.meta.url));
const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAYS = 20;
const EVENTS_PER_DAY = 250;
const BUCKET = "lake";
const PREFIX = "crash/events";

/** A bucket the export writes to, as the test sees it. */
interface Peer {
  /** The destination and credentials of POST /data-exports. */
  readonly destination: Record<string, unknown>;
  /** Environment of the worker processes. */
  readonly env: Record<string, string>;
  listKeys(prefix: string): Promise<string[]>;
  read(key: string): Promise<Buffer>;
  /** An object's version (GCS generation), to tell a kept object from a rewritten one; null where there is none. */
  version(key: string): string | null;
}

/** s3rver: a real S3 protocol server, with HMAC keys. */
async function s3rverPeer(t: ExecutionContext): Promise<Peer> {
  const s3 = await startS3Server(t, [BUCKET]);
  return {
    destination: { provider: "s3", endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    env: {},
    listKeys: (prefix) => s3.listKeys(BUCKET, prefix),
    read: (key) => s3.getObject(BUCKET, key),
    version: () => null,
  };
}

/** GCS's JSON API with a service account key: the fake on loopback, reached through nock here and in the workers. */
async function gcsPeer(t: ExecutionContext): Promise<Peer> {
  const fake = new FakeGcs([BUCKET]);
  const { file, publicKey } = serviceAccountKeyFile();
  fake.trust(file["client_email"]!, publicKey);
  const url = await serveFakeGcs(fake, (close) => t.teardown(close));
  t.teardown(interceptGoogle(fake));
  return {
    destination: { provider: "gcs", serviceAccountKey: file },
    env: { FAKE_GCS_URL: url },
    listKeys: async (prefix) => fake.keys(BUCKET, prefix),
    read: async (key) => fake.object(BUCKET, key)!.body,
    version: (key) => fake.object(BUCKET, key)?.generation ?? null,
  };
}

async function seedEvents(api: ApiFixture, companyId: string): Promise<string[]> {
  const { knex } = api.runtime;
  // Twenty days of email events, one daily file each: the source the files are counted against.
  for (let day = 0; day < DAYS; day++) {
    const sendId = `send_day${String(day).padStart(2, "0")}`;
    const dayStart = NOW - DAYS * DAY + day * DAY + HOUR;
    const at = (ms: number) => toDbDate(new Date(ms));
    await knex("email_sends").insert({
      id: sendId,
      company_id: companyId,
      recipient_email: "ada@example.com",
      email_type: "campaign",
      subject: "News",
      sender_email: "news@brand.example",
      status: "delivered",
      mailbox_provider: "gmail",
      created_at: at(dayStart),
      updated_at: at(dayStart),
    });
    const events = Array.from({ length: EVENTS_PER_DAY }, (_, i) => ({
      id: `eev_${day}_${String(i).padStart(4, "0")}`,
      company_id: companyId,
      email_send_id: sendId,
      event_type: i === 0 ? "delivery" : "open",
      event_time: at(dayStart + i * 60_000),
      machine: false,
      created_at: at(dayStart + i * 60_000),
    }));
    for (let i = 0; i < events.length; i += 100) await knex("email_events").insert(events.slice(i, i + 100));
  }
  return (await knex("email_events").where({ company_id: companyId }).select("id")).map((row: { id: string }) => row.id).sort();
}

async function crashAndResume(t: ExecutionContext, dialect: Dialect, makePeer: (t: ExecutionContext) => Promise<Peer>): Promise<void> {
  const secretKey = randomBytes(32);
  const api = await apiFixture(t, dialect, { allowPrivateDestinations: true, secretKey });
  const peer = await makePeer(t);
  const { knex, container } = api.runtime;
  const company = await createCompanyFixture(container, { name: "Acme" });
  const source = await seedEvents(api, company.companyId);
  t.is(source.length, DAYS * EVENTS_PER_DAY);

  const created = await api.call("POST", "/api/v1/data-exports", {
    key: company.ownerKey,
    body: {
      name: "Lake",
      bucket: BUCKET,
      pathPrefix: PREFIX,
      datasets: ["email_events"],
      frequency: "daily",
      startFrom: new Date(NOW - DAYS * DAY).toISOString(),
      ...peer.destination,
    },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const exportId: string = created.body.dataExport.id;
  const dataFiles = async () => (await peer.listKeys(`${PREFIX}/email_events/`)).filter((key) => key.endsWith(".jsonl.gz"));

  // The first worker uploads six files, and dies after the sixth upload, before committing it.
  const env = { SECRET_KEY: secretKey.toString("base64"), LEASE_MS: "1000", ...peer.env };
  const first = await startWorkerProcess(t, SCRIPT, api.database, { ...env, STALL_AFTER_UPLOADS: "6" });
  await waitFor("the first worker to stall after its sixth upload", async () => first.output().includes("stalled after"), 60_000);
  first.child.kill("SIGKILL");
  await once(first.child, "exit");
  const beforeResume = await dataFiles();
  t.is(beforeResume.length, 6, "six files uploaded before the kill");
  const versions = new Map(beforeResume.map((key) => [key, peer.version(key)]));
  const interrupted = await knex("data_exports").where({ id: exportId }).first("status");
  t.is(interrupted.status, "running", "the run was cut off while running");

  // Another worker takes the job over once its lease runs out, and finishes the run.
  await startWorkerProcess(t, SCRIPT, api.database, env);
  await waitFor(
    "the resumed run to succeed",
    async () => {
      const row = await knex("data_exports").where({ id: exportId }).first("status", "last_success_at");
      return row.status === "idle" && row.last_success_at !== null;
    },
    60_000,
  );

  const files = await dataFiles();
  t.is(files.length, DAYS, "one file per day");
  t.true(
    beforeResume.every((key) => files.includes(key)),
    "the uncommitted sixth file has the same name after the resume",
  );
  // Where objects have versions (GCS), the six files are the very objects the first worker wrote:
  // the sixth, uploaded but never recorded, had the same bytes and was kept, not overwritten.
  for (const [key, version] of versions) t.is(peer.version(key), version, key);
  const exported: string[] = [];
  for (const key of files) {
    for (const line of gunzipSync(await peer.read(key))
      .toString("utf8")
      .split("\n"))
      if (line) exported.push(JSON.parse(line).id as string);
  }
  t.is(exported.length, source.length, "no duplicate and no gap: as many rows as the source");
  t.deepEqual([...new Set(exported)].sort(), source, "every event of the source, once");

  const view = await api.call("GET", `/api/v1/data-exports/${exportId}`, { key: company.ownerKey });
  t.like(view.body.dataExport, { status: "idle", lastError: null, totalRowsExported: source.length });
  const manifests = await peer.listKeys(`${PREFIX}/_manifests/`);
  t.true(manifests.length >= 1, "the finished run wrote its manifest");
}

for (const dialect of dialects()) {
  test.serial(`${dialect.name}: an export run killed half-way and resumed by another worker writes every event exactly once (s3rver)`, (t) =>
    crashAndResume(t, dialect, s3rverPeer),
  );
  test.serial(`${dialect.name}: the same with a service account key through GCS's JSON API (fake GCS behind nock)`, (t) => crashAndResume(t, dialect, gcsPeer));
}
