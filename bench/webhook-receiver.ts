import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One POST as the receiver got it. */
export interface ReceivedHook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A customer's webhook endpoint on loopback: answers 200 at once and keeps every request until taken. */
export interface WebhookReceiver {
  readonly url: string;
  received(): number;
  /** Resolves once `total` requests have arrived since the receiver started; rejects after a minute without one. */
  until(total: number): Promise<void>;
  take(): ReceivedHook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let received = 0;
  let kept: ReceivedHook[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (chunk: Buffer) => parts.push(chunk));
    request.on("end", () => {
      kept.push({ headers: request.headers, body: Buffer.concat(parts).toString("utf8") });
      received += 1;
      response.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok");
      for (const waiter of waiters.filter((w) => received >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received: () => received,
    until(total) {
      if (received >= total) return Promise.resolve();
      return new Promise((resolve, reject) => {
        let seen = received;
        const watchdog = setInterval(() => {
          if (received === seen) {
            clearInterval(watchdog);
            reject(new Error(`the webhook receiver got ${received} of ${total} requests and nothing for a minute`));
          }
          seen = received;
        }, 60_000);
        waiters.push({
          count: total,
          resolve: () => {
            clearInterval(watchdog);
            resolve();
          },
        });
      });
    },
    take() {
      const taken = kept;
      kept = [];
      return taken;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/**
 * Checks what a side delivered as a receiver would: each expected event exactly once, its
 * signature (`v1=` HMAC-SHA256 of `v1:{timestamp}:{body}`) valid for `secret`, the body the
 * event's own. Throws with the first problem.
 */
export function verifyDeliveries(label: string, hooks: readonly ReceivedHook[], secret: string, expectedIds: readonly string[]): void {
  const expected = new Set(expectedIds);
  const seen = new Set<string>();
  for (const hook of hooks) {
    const timestamp = hook.headers["x-sequenzy-timestamp"];
    const signature = hook.headers["x-sequenzy-signature"];
    if (typeof timestamp !== "string" || typeof signature !== "string") throw new Error(`${label}: a request came without its signature headers`);
    const mac = createHmac("sha256", secret).update(`v1:${timestamp}:${hook.body}`).digest();
    const valid = signature.split(",").some((entry) => {
      const given = Buffer.from(entry.trim().replace(/^v1=/, ""), "hex");
      return given.length === mac.length && timingSafeEqual(given, mac);
    });
    if (!valid) throw new Error(`${label}: a signature does not verify`);
    const event = JSON.parse(hook.body) as { id?: string; type?: string; object?: string };
    if (!event.id || !expected.has(event.id) || event.object !== "event") throw new Error(`${label}: an unexpected event ${hook.body.slice(0, 200)}`);
    if (seen.has(event.id)) throw new Error(`${label}: event ${event.id} arrived twice`);
    seen.add(event.id);
  }
  if (seen.size !== expected.size) throw new Error(`${label}: ${seen.size} of ${expected.size} events arrived`);
}
