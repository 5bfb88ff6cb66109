// A worker process for the export crash test: the real runtime and worker, its bucket writer
// optionally stalling for good once it has made STALL_AFTER_UPLOADS uploads (the upload itself
// done, its commit never reached), so the test can kill it at a known point of a run. With
// FAKE_GCS_URL, Google's hosts are routed to the test's fake GCS (nock, then loopback).
import { BucketWriter, type Bucket, type BucketDestination } from "../../core/ports/bucket-writer.js";
import { onShutdown } from "../../hosts/cli/shutdown.js";
import { createLogger } from "../../hosts/logger.js";
import { startRuntime } from "../../hosts/runtime.js";
import { createWorker } from "../../hosts/worker/create-worker.js";
import { interceptGoogle } from "./fake-gcs.js";

if (process.env.FAKE_GCS_URL) interceptGoogle(process.env.FAKE_GCS_URL);

const logger = createLogger("info");
const runtime = await startRuntime({
  databaseUrl: process.env.DATABASE_URL!,
  logger,
  baseUrl: "http://localhost",
  secretKey: Buffer.from(process.env.SECRET_KEY!, "base64"),
  allowPrivateDestinations: true,
});
const stallAfter = Number(process.env.STALL_AFTER_UPLOADS ?? 0);
if (stallAfter > 0) {
  const real = runtime.container.get<BucketWriter>(BucketWriter);
  let uploads = 0;
  const stalling = (bucket: Bucket): Bucket => ({
    put: (key, body, options) => bucket.put(key, body, options),
    exists: (key) => bucket.exists(key),
    close: () => bucket.close(),
    async upload(key, body, options) {
      const written = await bucket.upload(key, body, options);
      if (++uploads >= stallAfter) {
        process.stdout.write(`stalled after ${key}\n`);
        await new Promise<never>(() => undefined);
      }
      return written;
    },
  });
  runtime.container.rebind<BucketWriter>(BucketWriter).toConstantValue({ open: (destination: BucketDestination) => stalling(real.open(destination)) });
}
const worker = createWorker(runtime.container, { concurrency: 1, leaseMs: Number(process.env.LEASE_MS ?? 1_000), pollMs: 100 });
onShutdown(logger, async () => {
  await worker.stop();
  await runtime.close();
});
await worker.start();
process.stdout.write(`ready ${worker.owner}\n`);
