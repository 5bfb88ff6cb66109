import { createHash, createPublicKey } from "node:crypto";
import { gunzipSync } from "node:zlib";
import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { isPostgres } from "../../../adapters/knex/connection.js";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { FakeGcs, GOOGLE_HOSTS, interceptGoogle, refusedRequests, serviceAccountKeyFile } from "../../helpers/fake-gcs.js";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const HOUR = 3_600_000;
const BUCKET = "acme-lake";

const fingerprintOf = (pem: string) =>
  `SHA256:${createHash("sha256")
    .update(createPublicKey(pem).export({ type: "spki", format: "der" }))
    .digest("base64")
    .replace(/=+$/, "")}`;

/** Every row of every table, as text: what a database reader would see. */
async function everyRow(knex: Knex): Promise<string> {
  const tables: string[] = isPostgres(knex)
    ? (await knex.raw("select table_name from information_schema.tables where table_schema = current_schema()")).rows.map(
        (r: { table_name: string }) => r.table_name,
      )
    : (await knex.raw("select name from sqlite_master where type = 'table'")).map((r: { name: string }) => r.name);
  const dumps: string[] = [];
  for (const table of tables) dumps.push(JSON.stringify(await knex(table).select()));
  return dumps.join("\n");
}

async function setup(t: ExecutionContext, dialect: Dialect) {
  const api = await apiFixture(t, dialect);
  const fake = new FakeGcs([BUCKET, "locked"]);
  fake.denied.add("locked");
  t.teardown(interceptGoogle(fake));
  const account = serviceAccountKeyFile();
  fake.trust(account.file["client_email"]!, account.publicKey);
  const { container, knex } = api.runtime;
  const a = await createCompanyFixture(container, { name: "Acme" });
  const b = await createCompanyFixture(container, { name: "Beta" });
  const worker = createWorker(container, { concurrency: 1 }, { push: false });
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: "Lake",
    provider: "gcs",
    bucket: BUCKET,
    pathPrefix: "exports",
    serviceAccountKey: account.file,
    frequency: "hourly",
    startFrom: new Date(NOW - 2 * HOUR).toISOString(),
    ...overrides,
  });
  const post = (path: string, payload: unknown, key = a.ownerKey) => api.call("POST", `/api/v1${path}`, { key, body: payload });
  const get = (path: string, key = a.ownerKey) => api.call("GET", `/api/v1${path}`, { key });
  const patch = (path: string, payload: unknown, key = a.ownerKey) => api.call("PATCH", `/api/v1${path}`, { key, body: payload });
  const exportsSaved = async () => Number(((await knex("data_exports").count("* as n").first()) as { n: unknown }).n);
  return { api, fake, account, knex, a, b, worker, body, post, get, patch, exportsSaved };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: data exports with a service account key: ${title}`;

  test.serial(name("create tests the bucket with the key, runs through Google's JSON API, and shows only the account and the fingerprint"), async (t) => {
    const { api, fake, account, knex, a, b, worker, body, post, get } = await setup(t, dialect);
    await knex("email_sends").insert({
      id: "send_1",
      company_id: a.companyId,
      recipient_email: "ada@example.com",
      email_type: "campaign",
      subject: "News",
      sender_email: "news@brand.example",
      status: "delivered",
      mailbox_provider: "gmail",
      created_at: toDbDate(new Date(NOW - HOUR)),
      updated_at: toDbDate(new Date(NOW - HOUR)),
    });
    await knex("email_events").insert(
      [0, 1, 2].map((i) => ({
        id: `eev_${i}`,
        company_id: a.companyId,
        email_send_id: "send_1",
        event_type: i === 0 ? "delivery" : "open",
        event_time: toDbDate(new Date(NOW - HOUR + i * 60_000)),
        machine: false,
        created_at: toDbDate(new Date(NOW - HOUR + i * 60_000)),
      })),
    );

    // The key as the file's text, as a form upload would send it.
    const created = await post("/data-exports", body({ serviceAccountKey: JSON.stringify(account.file), datasets: ["email_events"] }));
    t.is(created.status, 200, JSON.stringify(created.body));
    const view = created.body.dataExport;
    t.like(view, {
      provider: "gcs",
      bucket: BUCKET,
      region: "auto",
      endpoint: null,
      accessKeyId: null,
      serviceAccount: { clientEmail: account.file["client_email"], keyFingerprint: fingerprintOf(account.file["private_key"]!) },
      status: "queued",
    });
    t.false(JSON.stringify(created.body).includes("PRIVATE KEY"));
    t.false(JSON.stringify(created.body).includes(account.file["private_key_id"]!));
    t.deepEqual(fake.keys(BUCKET), ["exports/_service/connection-test.json"]);

    await worker.runDue();
    const runs = (await get(`/data-exports/${view.id}/runs`)).body.runs;
    t.like(runs[0], { status: "succeeded", rowsExported: 3, filesWritten: 1 });
    const [file] = fake.keys(BUCKET, "exports/email_events/");
    const rows = gunzipSync(fake.object(BUCKET, file!)!.body).toString("utf8").trim().split("\n");
    t.deepEqual(
      rows.map((row) => JSON.parse(row).id),
      ["eev_0", "eev_1", "eev_2"],
    );
    t.is(fake.keys(BUCKET, "exports/_manifests/").length, 1);
    t.true(fake.requests.every((request) => GOOGLE_HOSTS.includes(request.host)));
    t.deepEqual(refusedRequests, [], "no request left for any other host");

    // Stored sealed: no part of the key in any table.
    const dump = await everyRow(knex);
    t.false(dump.includes(account.file["private_key"]!.split("\n")[1]!));
    t.false(dump.includes(account.file["private_key_id"]!));
    const row = await knex("data_exports").where({ id: view.id }).first();
    t.like(row, { credential_type: "service_account", access_key_id: account.file["client_email"], key_fingerprint: view.serviceAccount.keyFingerprint });

    const listed = (await get("/data-exports")).body.dataExports;
    t.deepEqual(listed[0].serviceAccount, view.serviceAccount);
    t.like((await get(`/data-exports/${view.id}`, b.ownerKey)).body, { success: false, code: "not_found" });
    t.is((await get(`/data-exports/${view.id}`, b.ownerKey)).status, 404);
    t.is((await api.call("PATCH", `/api/v1/data-exports/${view.id}`, { key: b.ownerKey, body: { serviceAccountKey: account.file } })).status, 404);
  });

  test.serial(
    name("one form or the other: both or neither is 422 naming the fields; a bad or crafted key is 400; a refusal is connection_failed; nothing is saved"),
    async (t) => {
      const { fake, account, body, post, exportsSaved } = await setup(t, dialect);
      const both = await post("/data-exports", body({ accessKeyId: "GOOG1EXAMPLE", secretAccessKey: "hmac-secret" }));
      t.is(both.status, 422);
      t.like(both.body, { success: false, code: "invalid_input" });
      t.deepEqual(
        both.body.errors.map((e: { path: string }) => e.path),
        ["accessKeyId", "secretAccessKey", "serviceAccountKey"],
      );
      t.regex(both.body.error, /accessKeyId must not be given with serviceAccountKey/);

      const neither = await post("/data-exports", body({ serviceAccountKey: undefined }));
      t.is(neither.status, 422);
      t.deepEqual(
        neither.body.errors.map((e: { path: string }) => e.path),
        ["accessKeyId", "secretAccessKey", "serviceAccountKey"],
      );
      // With s3, the spec's own message for a missing key, word for word.
      const s3 = await post("/data-exports", body({ provider: "s3", region: "eu-west-1", serviceAccountKey: undefined, accessKeyId: "AKIAEXAMPLE000000000" }));
      t.is(s3.status, 422);
      t.regex(s3.body.error, /secretAccessKey is required/);
      const s3Key = await post("/data-exports", body({ provider: "s3", region: "eu-west-1" }));
      t.is(s3Key.status, 422);
      t.like(s3Key.body.errors, [{ path: "serviceAccountKey", message: "is only accepted with provider gcs" }]);
      const wrongType = await post("/data-exports", body({ serviceAccountKey: 42 }));
      t.is(wrongType.status, 422);

      const before = fake.requests.length;
      const cases: Array<[Record<string, unknown> | string, RegExp]> = [
        [
          { ...account.file, token_uri: "http://169.254.169.254/computeMetadata/v1/token" },
          /serviceAccountKey\.token_uri must be https:\/\/oauth2\.googleapis\.com\/token/,
        ],
        [{ ...account.file, auth_uri: "https://127.0.0.1:8080/auth" }, /serviceAccountKey\.auth_uri must be a URL of Google/],
        [
          { ...account.file, private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" },
          /serviceAccountKey\.private_key must be a PEM private key/,
        ],
        [{ ...account.file, type: "authorized_user" }, /serviceAccountKey\.type must be "service_account"/],
        ["{not json", /serviceAccountKey must be the content of a service account's JSON key file/],
      ];
      for (const [key, message] of cases) {
        const refused = await post("/data-exports", body({ serviceAccountKey: key }));
        t.is(refused.status, 400, JSON.stringify(refused.body));
        t.like(refused.body, { success: false, code: "invalid_input" });
        t.regex(refused.body.error, message);
      }
      t.is(fake.requests.length, before, "a refused key never reaches the network");
      t.is((await post("/data-exports", body({ endpoint: "https://storage.example" }))).status, 400);

      const denied = await post("/data-exports", body({ bucket: "locked" }));
      t.is(denied.status, 400);
      t.like(denied.body, {
        success: false,
        code: "connection_failed",
        error: `Could not write the test file exports/_service/connection-test.json to bucket locked: Permission denied: the service account ${account.file["client_email"]} may not write to the bucket "locked" (it needs storage.objects.create, e.g. the Storage Object Creator role on the bucket).`,
      });
      const stranger = serviceAccountKeyFile("removed@acme-data.iam.gserviceaccount.com").file;
      const refusedKey = await post("/data-exports", body({ serviceAccountKey: stranger }));
      t.is(refusedKey.status, 400);
      t.regex(refusedKey.body.error, /Google refused the service account key \(invalid_grant: Invalid grant: account not found\)/);
      t.false(JSON.stringify(refusedKey.body).includes("PRIVATE KEY"));
      t.is(await exportsSaved(), 0);
    },
  );

  test.serial(name("PATCH rotates the key after a new connection test; a refused key changes nothing"), async (t) => {
    const { fake, account, knex, body, post, patch, get } = await setup(t, dialect);
    const created = (await post("/data-exports", body())).body.dataExport;
    const sealedBefore = (await knex("data_exports").where({ id: created.id }).first()).secret_sealed;

    const stranger = serviceAccountKeyFile("removed@acme-data.iam.gserviceaccount.com").file;
    const refused = await patch(`/data-exports/${created.id}`, { serviceAccountKey: stranger });
    t.is(refused.status, 400);
    t.is(refused.body.code, "connection_failed");
    t.is((await knex("data_exports").where({ id: created.id }).first()).secret_sealed, sealedBefore);

    const both = await patch(`/data-exports/${created.id}`, { serviceAccountKey: account.file, accessKeyId: "GOOG1", secretAccessKey: "s" });
    t.is(both.status, 400);
    t.like(both.body, { code: "invalid_input", error: "give either accessKeyId with secretAccessKey, or serviceAccountKey, not both" });

    const next = serviceAccountKeyFile("exporter-2@acme-data.iam.gserviceaccount.com");
    fake.trust(next.file["client_email"]!, next.publicKey);
    const tokensBefore = fake.tokens.size;
    const rotated = await patch(`/data-exports/${created.id}`, { serviceAccountKey: next.file });
    t.is(rotated.status, 200, JSON.stringify(rotated.body));
    t.deepEqual(rotated.body.dataExport.serviceAccount, { clientEmail: next.file["client_email"], keyFingerprint: fingerprintOf(next.file["private_key"]!) });
    t.is(fake.tokens.size, tokensBefore + 1, "the new key signed in for its connection test");
    t.is([...fake.tokens.values()].at(-1), next.file["client_email"]);
    t.deepEqual((await get(`/data-exports/${created.id}`)).body.dataExport.serviceAccount, rotated.body.dataExport.serviceAccount);
    t.not((await knex("data_exports").where({ id: created.id }).first()).secret_sealed, sealedBefore);
  });
}
