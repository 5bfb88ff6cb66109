// A worker process for the campaign crash test: the real runtime and worker delivering through
// MAIL_URL in batches of CAMPAIGN_BATCH_SIZE; with STALL_AT_RECORD=n it records n - 1 parts of
// batches and stalls for good once the nth is rendered, just before it is recorded, so the test
// can kill it mid-send.
import { CampaignSendRepository, type RecordBatchInput } from "../../core/campaigns/send-ports.js";
import { onShutdown } from "../../hosts/cli/shutdown.js";
import { createLogger } from "../../hosts/logger.js";
import { startRuntime } from "../../hosts/runtime.js";
import { createWorker } from "../../hosts/worker/create-worker.js";

const logger = createLogger("info");
const runtime = await startRuntime({
  databaseUrl: process.env.DATABASE_URL!,
  logger,
  baseUrl: "http://localhost",
  secretKey: Buffer.from(process.env.SECRET_KEY!, "base64"),
  mailUrl: process.env.MAIL_URL!,
  campaignSends: { batchSize: Number(process.env.CAMPAIGN_BATCH_SIZE ?? 500), perCompany: null, perServer: null },
});
const stallAt = Number(process.env.STALL_AT_RECORD ?? 0);
if (stallAt > 0) {
  const real = runtime.container.get<CampaignSendRepository>(CampaignSendRepository);
  const stalling: CampaignSendRepository = Object.create(real);
  let records = 0;
  stalling.recordBatch = async (input: RecordBatchInput) => {
    if ((records += 1) === stallAt) {
      process.stdout.write(`stalled at batch ${input.batch} after position ${input.from}\n`);
      await new Promise<never>(() => undefined);
    }
    return real.recordBatch(input);
  };
  runtime.container.rebind<CampaignSendRepository>(CampaignSendRepository).toConstantValue(stalling);
}
const worker = createWorker(runtime.container, { concurrency: 1, leaseMs: Number(process.env.LEASE_MS ?? 1_000), pollMs: 100 });
onShutdown(logger, async () => {
  await worker.stop();
  await runtime.close();
});
await worker.start();
process.stdout.write(`ready ${worker.owner}\n`);
