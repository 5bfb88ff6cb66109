import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HmacWebhookSigner } from "../adapters/crypto/webhook-signatures.js";
import { DestinationHttpClient } from "../adapters/http/destination-http-client.js";
import { AuthenticateApiKey } from "../core/api-keys/authenticate-api-key.js";
import { chunksOf } from "../core/shared/chunks.js";
import { CreateWebhook } from "../core/webhooks/create-webhook.js";
import { emailWebhookEvent } from "../core/webhooks/event-data.js";
import { DELIVERY_TIMEOUT_MS, MAX_RESPONSE_BYTES, webhookEventBody, type WebhookEvent } from "../core/webhooks/model.js";
import { WebhookPublisher } from "../core/webhooks/ports.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { startRuntime } from "../hosts/runtime.js";
import { createWorker } from "../hosts/worker/create-worker.js";
import { infoLogTo } from "./log-file.js";
import { alternate, ratioLine } from "./rounds.js";
import { count } from "./settings.js";
import { startWebhookReceiver, verifyDeliveries } from "./webhook-receiver.js";

/**
 * Email events fanned out to a customer's webhook: N `email.delivered` events handed to the
 * webhook publisher (the port every event source uses) in batches of 100, as the email pipeline's
 * group commits hand them over, each stored as a delivery with its durable job in one transaction,
 * then claimed by the worker, signed and POSTed through the destination HTTP client to a receiver
 * on loopback; timed from the first publish until the receiver holds the last event. Baseline: a
 * bare loop that signs the same bodies with the same signer and POSTs them through the same HTTP
 * client, as many in flight as the worker runs jobs at once. Alternating rounds; every request of
 * both sides is checked afterwards: each event exactly once, its signature valid.
 */

const NAME = "webhook-fanout";
const GOAL = 0.5;
/** `lifecycle worker --concurrency 8` (the default is 1), and the baseline's requests in flight: the line says so. */
const CONCURRENCY = 8;
const BATCH = 100;
const WARMUP = 200;

/** Runs `task(i)` for i in [0, n), `width` at a time. */
async function inParallel(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/** N email events of one round: the same shape the email pipeline publishes. */
function eventsOf(run: string, n: number): WebhookEvent[] {
  const at = new Date();
  return Array.from({ length: n }, (_, i) =>
    emailWebhookEvent(`eev_${run}_${i}`, "email.delivered", at, {
      emailSendId: `send_${run}_${i}`,
      messageId: `<send_${run}_${i}@bench.example>`,
      campaignId: "camp_bench",
      sequenceId: null,
      transactionalEmailId: null,
      subscriberId: `sub_${i}`,
      externalId: `user-${i}`,
      recipient: `reader-${i}@example.org`,
      subject: "Our autumn collection is here",
      emailType: "campaign",
    }),
  );
}

export async function webhookFanout(): Promise<string> {
  const events = count("BENCH_WEBHOOK_EVENTS", 20_000);
  const rounds = count("BENCH_ROUNDS", 4);
  const share = Math.ceil(events / rounds);
  const receiver = await startWebhookReceiver();
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`,
    logger: infoLogTo(join(dir, "product.log")),
    baseUrl: "http://127.0.0.1",
    // The receiver is on loopback: the destination client refuses it otherwise.
    allowPrivateDestinations: true,
  });
  const worker = createWorker(runtime.container, { concurrency: CONCURRENCY });
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const actor = await runtime.container.get(AuthenticateApiKey).execute(company.ownerKey);
    if (actor._tag === "Left") throw new Error(actor.left.message);
    const created = await runtime.container.get(CreateWebhook).execute(actor.right, { name: "Bench receiver", url: receiver.url, events: ["email.delivered"] });
    if (created._tag === "Left") throw new Error(created.left.message);
    const secret = created.right.signingSecret!;
    const publisher = runtime.container.get<WebhookPublisher>(WebhookPublisher);
    await worker.start();

    const throughWebhooks = async (run: string, n: number): Promise<number> => {
      const batch = eventsOf(run, n);
      const before = receiver.received();
      const start = performance.now();
      for (const chunk of chunksOf(batch, BATCH)) await publisher.publish(company.companyId, chunk);
      await receiver.until(before + n);
      const rate = n / ((performance.now() - start) / 1000);
      verifyDeliveries(
        `bench ${NAME}: product`,
        receiver.take(),
        secret,
        batch.map((event) => event.id),
      );
      return rate;
    };

    const signer = new HmacWebhookSigner();
    const client = new DestinationHttpClient({ allowPrivate: true });
    const bare = async (run: string, n: number): Promise<number> => {
      const batch = eventsOf(run, n);
      const start = performance.now();
      await inParallel(n, CONCURRENCY, async (i) => {
        const event = batch[i]!;
        const body = webhookEventBody(event);
        const timestamp = Math.floor(Date.now() / 1000);
        const response = await client.send({
          method: "POST",
          url: receiver.url,
          headers: {
            "content-type": "application/json",
            "x-sequenzy-timestamp": String(timestamp),
            "x-sequenzy-signature": signer.signature([secret], timestamp, body),
            "x-sequenzy-event-id": event.id,
          },
          body,
          timeoutMs: DELIVERY_TIMEOUT_MS,
          maxResponseBytes: MAX_RESPONSE_BYTES,
        });
        if (response.status !== 200) throw new Error(`bench ${NAME}: the receiver answered ${response.status}`);
      });
      const rate = n / ((performance.now() - start) / 1000);
      verifyDeliveries(
        `bench ${NAME}: baseline`,
        receiver.take(),
        secret,
        batch.map((event) => event.id),
      );
      return rate;
    };

    await throughWebhooks("w", WARMUP);
    await bare("w", WARMUP);
    process.stderr.write(`${NAME}: ${share} events a side a round, ${rounds} rounds, ${CONCURRENCY} in flight (worker concurrency ${CONCURRENCY})\n`);
    const comparison = await alternate(
      NAME,
      rounds,
      "events/s",
      (round) => bare(String(round), share),
      (round) => throughWebhooks(String(round), share),
    );
    // The receiver holds every event; the worker may still be recording the last attempts.
    for (let wait = 0; wait < 100; wait += 1) {
      const pending = await runtime.knex("webhook_deliveries").where({ status: "pending" }).count({ n: "*" }).first();
      if (Number(pending?.n ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const unsettled: Array<{ status: string; error: string | null }> = await runtime
      .knex("webhook_deliveries")
      .whereNot({ status: "succeeded" })
      .select("status", "error");
    if (unsettled.length > 0)
      throw new Error(`bench ${NAME}: ${unsettled.length} deliveries did not succeed, e.g. ${unsettled[0]!.status}: ${unsettled[0]!.error}`);
    return ratioLine(NAME, "events/s", comparison, GOAL, [
      "LOG_LEVEL=info to a file",
      `worker --concurrency ${CONCURRENCY}`,
      "ALLOW_PRIVATE_DESTINATIONS=true (loopback receiver)",
    ]);
  } finally {
    await worker.stop();
    await runtime.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
