import { createHash, randomBytes } from "node:crypto";
import test, { type ExecutionContext } from "ava";
import nock from "nock";
import { GcsBucketWriter, type GcsBucketWriterOptions } from "../../adapters/gcs/gcs-bucket-writer.js";
import { BucketWriteError, type BucketDestination } from "../../core/ports/bucket-writer.js";
import { FakeGcs, GOOGLE_HOSTS, interceptGoogle, refusedRequests, serviceAccountKeyFile, STORAGE_ORIGIN } from "../helpers/fake-gcs.js";

const BUCKET = "acme-exports";
const JSONL_GZ = { contentType: "application/gzip" } as const;

/** A fake GCS reached through nock, a trusted service account, and a writer for it. */
function setup(t: ExecutionContext, options: GcsBucketWriterOptions = {}, buckets: string[] = [BUCKET]) {
  const fake = new FakeGcs(buckets);
  const { file, publicKey } = serviceAccountKeyFile();
  fake.trust(file["client_email"]!, publicKey);
  t.teardown(interceptGoogle(fake));
  const writer = new GcsBucketWriter({ requestTimeoutMs: 10_000, maxRetries: 1, totalRetryMs: 5_000, ...options });
  const destination = (bucket = BUCKET, key = file): BucketDestination => ({
    provider: "gcs",
    bucket,
    region: "auto",
    endpoint: null,
    accessKeyId: key["client_email"]!,
    secretAccessKey: "",
    serviceAccountKey: {
      clientEmail: key["client_email"]!,
      privateKey: key["private_key"]!,
      privateKeyId: key["private_key_id"]!,
      projectId: key["project_id"]!,
    },
  });
  const open = (target = destination()) => {
    const bucket = writer.open(target);
    t.teardown(() => bucket.close());
    return bucket;
  };
  return { fake, file, destination, open };
}

/** `size` random bytes in 64 KiB chunks, calling `atHalf` once half of them are out. */
async function* bytes(size: number, atHalf: () => Promise<void> = async () => {}): AsyncGenerator<Uint8Array> {
  let sent = 0;
  let halfDone = false;
  while (sent < size) {
    const length = Math.min(64 * 1024, size - sent);
    yield randomBytes(length);
    sent += length;
    if (!halfDone && sent >= size / 2) {
      halfDone = true;
      await atHalf();
    }
  }
}

async function* fixed(body: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < body.length; at += 100_000) yield body.subarray(at, at + 100_000);
}

test.serial(
  "signs in with the key's own signature at Google's token endpoint and writes, reads and checks objects on storage.googleapis.com only",
  async (t) => {
    const { fake, file, open } = setup(t);
    const bucket = open();
    const key = "exports/_service/connection-test.json";
    t.false(await bucket.exists(key));
    await bucket.put(key, JSON.stringify({ ok: true }), { contentType: "application/json" });
    t.true(await bucket.exists(key));
    t.deepEqual(JSON.parse(fake.object(BUCKET, key)!.body.toString("utf8")), { ok: true });
    t.is(fake.object(BUCKET, key)!.contentType, "application/json");

    // The token was issued to the key's account after the fake checked the assertion's RS256 signature.
    t.deepEqual([...fake.tokens.values()], [file["client_email"]]);
    t.true(fake.requests.every((request) => GOOGLE_HOSTS.includes(request.host)));
    t.deepEqual(refusedRequests, [], "no request for any other host");
    t.is(fake.requests.filter((request) => request.path.endsWith("/token")).length, 1, "one token for every call");
    t.true(
      fake.requests.some((r) => r.method === "POST" && r.query.get("uploadType") === "multipart"),
      "a small object in one multipart request",
    );
  },
);

test.serial(
  "a 20 MiB file goes up as a resumable upload in 8 MiB chunks that creates the object only with its last byte, never over an existing one",
  async (t) => {
    const { fake, open } = setup(t);
    const bucket = open();
    const key = "exports/email_events/date=2026-11-22/20261122T100000000Z_eev_1.jsonl.gz";
    const produced = createHash("sha256");
    const seenMidway: { exists?: boolean; keys?: string[] } = {};
    async function* body() {
      for await (const chunk of bytes(20 * 1024 * 1024 + 12_345, async () => {
        seenMidway.exists = await bucket.exists(key);
        seenMidway.keys = fake.keys(BUCKET);
      })) {
        produced.update(chunk);
        yield chunk;
      }
    }
    const { bytes: written } = await bucket.upload(key, body(), JSONL_GZ);
    t.is(written, 20 * 1024 * 1024 + 12_345);
    t.deepEqual(seenMidway, { exists: false, keys: [] });
    const stored = fake.object(BUCKET, key)!;
    t.is(createHash("sha256").update(stored.body).digest("hex"), produced.digest("hex"));
    t.is(stored.contentType, "application/gzip");

    const session = fake.requests.find((r) => r.method === "POST" && r.query.get("uploadType") === "resumable")!;
    t.is(session.query.get("ifGenerationMatch"), "0", "created only if nothing is there");
    t.is(fake.requests.filter((r) => r.method === "PUT").length, 3, "three chunks of at most 8 MiB");
    t.is(fake.openSessions, 0);
  },
);

test.serial("a body failing half-way leaves nothing behind and its own error is rethrown; the same key can be written afterwards", async (t) => {
  const { fake, open } = setup(t, { chunkBytes: 256 * 1024 });
  const bucket = open();
  const key = "exports/subscribers/date=2026-11-22/part-00000.jsonl.gz";
  const databaseGone = new Error("the database went away");
  let released = false;
  async function* failing(): AsyncGenerator<Uint8Array> {
    try {
      yield* bytes(1024 * 1024);
      throw databaseGone;
    } finally {
      released = true;
    }
  }
  const error = await t.throwsAsync(bucket.upload(key, failing(), JSONL_GZ));
  t.is(error, databaseGone);
  t.true(released);
  t.false(await bucket.exists(key));
  t.deepEqual(fake.keys(BUCKET), []);
  await bucket.upload(key, bytes(1000), JSONL_GZ);
  t.is(fake.object(BUCKET, key)!.body.length, 1000);
});

test.serial("a file an earlier attempt left is kept when the bytes are the same, and only that very generation is replaced when they differ", async (t) => {
  const { fake, open } = setup(t, { chunkBytes: 256 * 1024 });
  const bucket = open();
  const key = "exports/email_events/date=2026-11-21/20261121T000000000Z_eev_0.jsonl.gz";
  const first = randomBytes(600_000);
  await bucket.upload(key, fixed(first), JSONL_GZ);
  const leftover = fake.object(BUCKET, key)!;

  // The run resumed writes the same rows again: the object stays as it is (same generation).
  const again = await bucket.upload(key, fixed(first), JSONL_GZ);
  t.is(again.bytes, first.length);
  t.is(fake.object(BUCKET, key)!.generation, leftover.generation, "not overwritten");

  // Different bytes (a snapshot part whose contacts changed): that leftover is replaced, pinned to its generation.
  const second = randomBytes(300_000);
  const replaced = await bucket.upload(key, fixed(second), JSONL_GZ);
  t.is(replaced.bytes, second.length);
  t.true(fake.object(BUCKET, key)!.body.equals(second));
  const pinned = fake.requests.filter((r) => r.method === "POST" && r.query.get("uploadType") === "resumable").at(-1)!;
  t.is(pinned.query.get("ifGenerationMatch"), leftover.generation);
});

test.serial("an object that appears while the file is being written is not overwritten: a readable precondition failure", async (t) => {
  const { fake, open } = setup(t, { chunkBytes: 256 * 1024 });
  const bucket = open();
  const key = "exports/custom_events/date=2026-11-22/x.jsonl.gz";
  const error = await t.throwsAsync(
    bucket.upload(
      key,
      bytes(1024 * 1024, async () => {
        fake.seed(BUCKET, key, Buffer.from("someone else's"));
      }),
      JSONL_GZ,
    ),
    { instanceOf: BucketWriteError },
  );
  t.is(error?.message, `"${key}" was written by someone else while this export wrote it; it is left as it is.`);
  t.is(fake.object(BUCKET, key)!.body.toString(), "someone else's");
});

test.serial("Google's refusals read as sentences (missing bucket, permission denied, billing disabled, key refused) and never carry the key", async (t) => {
  const { fake, file, open, destination } = setup(t, {}, [BUCKET, "locked", "unpaid"]);
  fake.denied.add("locked");
  fake.billingDisabled.add("unpaid");
  const probe = (bucket: string, key = file) =>
    open(destination(bucket, key)).put("a/_service/connection-test.json", "{}", { contentType: "application/json" });

  const missing = await t.throwsAsync(probe("no-such-bucket"), { instanceOf: BucketWriteError });
  t.is(missing?.message, 'The bucket "no-such-bucket" does not exist.');
  const denied = await t.throwsAsync(probe("locked"), { instanceOf: BucketWriteError });
  t.is(
    denied?.message,
    `Permission denied: the service account ${file["client_email"]} may not write to the bucket "locked" (it needs storage.objects.create, e.g. the Storage Object Creator role on the bucket).`,
  );
  const unpaid = await t.throwsAsync(probe("unpaid"), { instanceOf: BucketWriteError });
  t.is(unpaid?.message, 'Billing is disabled for the Google Cloud project that owns the bucket "unpaid".');
  const uploadDenied = await t.throwsAsync(open(destination("locked")).upload("a/b.jsonl.gz", bytes(1000), JSONL_GZ), { instanceOf: BucketWriteError });
  t.regex(uploadDenied.message, /^Permission denied: the service account /);

  // A key Google does not know (deleted): the token exchange is refused.
  const stranger = serviceAccountKeyFile("deleted@acme-data.iam.gserviceaccount.com").file;
  const refused = await t.throwsAsync(probe(BUCKET, stranger), { instanceOf: BucketWriteError });
  t.is(
    refused?.message,
    "Google refused the service account key (invalid_grant: Invalid grant: account not found); the key may have been deleted or disabled, or the account removed.",
  );
  for (const error of [missing, denied, unpaid, uploadDenied, refused]) {
    t.false(error.message.includes("PRIVATE KEY"));
    t.false(error.message.includes(file["private_key"]!.slice(40, 80)));
  }
  t.deepEqual(fake.keys(BUCKET), []);
  t.true(fake.requests.every((request) => GOOGLE_HOSTS.includes(request.host)));
  t.deepEqual(refusedRequests, []);
});

test.serial("a call that gets no answer is abandoned after the timeout with a readable error, and 503s are retried a bounded number of times", async (t) => {
  const { fake } = setup(t);
  // Registered first, so they win over the fake for these buckets.
  nock.cleanAll();
  nock(STORAGE_ORIGIN)
    .persist()
    .get(/\/b\/silent\//)
    .query(true)
    .delay(5_000)
    .reply(200, "{}");
  let unavailable = 0;
  nock(STORAGE_ORIGIN)
    .persist()
    .post(/\/b\/flaky\//)
    .query(true)
    .reply(() => {
      unavailable += 1;
      return [503, JSON.stringify({ error: { code: 503, message: "Backend Error", errors: [{ reason: "backendError" }] } })];
    });
  t.teardown(interceptGoogle(fake));

  const impatient = new GcsBucketWriter({ requestTimeoutMs: 700 }).open(destinationFor(fake, "silent"));
  t.teardown(() => impatient.close());
  const started = Date.now();
  const silent = await t.throwsAsync(impatient.exists("x"), { instanceOf: BucketWriteError });
  t.is(silent?.message, "Google Cloud Storage did not answer within 0.7 seconds.");
  t.true(Date.now() - started < 4_000);

  const retrying = new GcsBucketWriter({ requestTimeoutMs: 20_000, maxRetries: 2, totalRetryMs: 20_000 }).open(destinationFor(fake, "flaky"));
  t.teardown(() => retrying.close());
  const flaky = await t.throwsAsync(retrying.put("x.json", "{}", { contentType: "application/json" }), { instanceOf: BucketWriteError });
  t.is(flaky?.message, "Google Cloud Storage had an internal error; the export will retry.");
  t.is(unavailable, 3, "the first attempt and two retries, then the job's own retry takes over");
});

/** A destination for `bucket` with a freshly trusted key. */
function destinationFor(fake: FakeGcs, bucket: string): BucketDestination {
  const { file, publicKey } = serviceAccountKeyFile();
  fake.trust(file["client_email"]!, publicKey);
  return {
    provider: "gcs",
    bucket,
    region: "auto",
    endpoint: null,
    accessKeyId: file["client_email"]!,
    secretAccessKey: "",
    serviceAccountKey: { clientEmail: file["client_email"]!, privateKey: file["private_key"]!, privateKeyId: null, projectId: null },
  };
}

test.serial("a destination that is not gcs with a service account key is refused before any request", async (t) => {
  const { fake, destination } = setup(t);
  const writer = new GcsBucketWriter();
  const s3 = writer.open({ ...destination(), provider: "s3" });
  await t.throwsAsync(s3.put("x", "{}", { contentType: "application/json" }), { message: "A service account key is only used with provider gcs." });
  const endpoint = writer.open({ ...destination(), endpoint: "https://evil.example" });
  await t.throwsAsync(endpoint.exists("x"), { message: "An endpoint cannot be given for gcs." });
  t.deepEqual(fake.requests, []);
});
