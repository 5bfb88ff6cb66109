import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { type ExecutionContext } from "ava";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { createCompanyFixture } from "../../fixtures/companies.js";
import { writeContactsCsv } from "../../fixtures/contacts-csv.js";
import { runCli } from "../helpers/cli.js";
import { dialects } from "../helpers/databases.js";
import { FakeGcs, serveFakeGcs } from "../helpers/fake-gcs.js";
import { startTestRuntime } from "../helpers/runtime.js";
import { startS3Server } from "../helpers/s3-server.js";

const ROWS = 5_000;
const countOf = async (query: Promise<unknown>) => Number(((await query) as { n: unknown }).n);

function workdir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bucket-import-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: import-subscribers from a bucket: ${title}`;

  test(name("s3:// and gs:// objects are streamed into the company; a missing object or a denied read is one line, exit 1, nothing imported"), async (t) => {
    t.timeout(120_000);
    const cwd = workdir(t);
    const database = await dialect.create();
    const runtime = await startTestRuntime(database);
    t.teardown(async () => {
      await runtime.close();
      await database.drop();
    });
    const { knex } = runtime;
    const company = await createCompanyFixture(runtime.container, { name: "Importers" });
    const file = join(cwd, "contacts.csv");
    const csv = await writeContactsCsv(file, { rows: ROWS, invalidEvery: 97, duplicateEvery: 89 });
    const content = readFileSync(file);

    // s3://: s3rver, with AWS's standard environment (path-style through the endpoint variable).
    const s3 = await startS3Server(t, ["imports"]);
    const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3 });
    t.teardown(() => client.destroy());
    await client.send(new PutObjectCommand({ Bucket: "imports", Key: "2026/contacts.csv", Body: content }));
    const awsEnv = {
      ...database.env,
      AWS_REGION: s3.region,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
    };
    const fromS3 = await runCli(["import-subscribers", "--company", company.companyId, "--json", "s3://imports/2026/contacts.csv"], { cwd, env: awsEnv });
    t.is(fromS3.code, 0, fromS3.stderr);
    t.like(JSON.parse(fromS3.stdout), {
      status: "completed",
      fileName: "contacts.csv",
      totalRows: ROWS,
      addedCount: csv.contacts,
      failedCount: csv.invalid,
      skippedCount: csv.duplicates,
    });
    t.is(await countOf(knex("subscribers").where({ company_id: company.companyId }).count("* as n").first()), csv.contacts);

    const importsBefore = await countOf(knex("subscriber_imports").count("* as n").first());
    const missing = await runCli(["import-subscribers", "--company", company.companyId, "s3://imports/2026/nope.csv"], { cwd, env: awsEnv });
    t.is(missing.code, 1);
    t.is(missing.stderr, "error: s3://imports/2026/nope.csv: no such object (or no such bucket)\n");
    const denied = await runCli(["import-subscribers", "--company", company.companyId, "s3://imports/2026/contacts.csv"], {
      cwd,
      env: { ...awsEnv, AWS_SECRET_ACCESS_KEY: "not-the-secret" },
    });
    t.is(denied.code, 1);
    t.is(denied.stderr, "error: s3://imports/2026/contacts.csv: access denied: the AWS credentials in the environment may not read it\n");

    // gs://: the fake GCS JSON API on loopback, through Google's emulator variable.
    const fake = new FakeGcs(["gcs-imports", "locked"]);
    fake.allowAnonymous = true;
    fake.denied.add("locked");
    const emulator = await serveFakeGcs(fake, (close) => t.teardown(close));
    fake.seed("gcs-imports", "lists/contacts.csv", content);
    fake.seed("locked", "contacts.csv", content);
    const gcsEnv = { ...database.env, STORAGE_EMULATOR_HOST: emulator };
    const fromGcs = await runCli(
      ["import-subscribers", "--company", company.companyId, "--duplicate-strategy", "merge", "gs://gcs-imports/lists/contacts.csv"],
      {
        cwd,
        env: gcsEnv,
      },
    );
    t.is(fromGcs.code, 0, fromGcs.stderr);
    t.regex(fromGcs.stdout, new RegExp(`^imported ${ROWS} of ${ROWS} rows from contacts\\.csv: 0 added, ${csv.contacts} updated, `));
    t.true(
      fake.requests.some((r) => r.query.get("alt") === "media"),
      "the object was downloaded as a stream",
    );

    const gone = await runCli(["import-subscribers", "--company", company.companyId, "gs://gcs-imports/lists/gone.csv"], { cwd, env: gcsEnv });
    t.is(gone.code, 1);
    t.is(gone.stderr, "error: gs://gcs-imports/lists/gone.csv: no such object (or no such bucket)\n");
    const locked = await runCli(["import-subscribers", "--company", company.companyId, "gs://locked/contacts.csv"], { cwd, env: gcsEnv });
    t.is(locked.code, 1);
    t.is(locked.stderr, "error: gs://locked/contacts.csv: access denied: the application default credentials may not read it (storage.objects.get)\n");
    const malformed = await runCli(["import-subscribers", "--company", company.companyId, "gs://only-a-bucket"], { cwd, env: gcsEnv });
    t.is(malformed.code, 1);
    t.is(malformed.stderr, "error: gs://only-a-bucket: give the object as s3://bucket/key or gs://bucket/key\n");

    // Only the gs:// import that succeeded was recorded: the refusals imported nothing.
    t.is(await countOf(knex("subscriber_imports").count("* as n").first()), importsBefore + 1);
    t.is(await countOf(knex("subscribers").where({ company_id: company.companyId }).count("* as n").first()), csv.contacts);
  });
}
