import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** An SMTP server on loopback that keeps every message it accepts, raw, until taken. */
export interface SmtpSink {
  readonly port: number;
  /** Messages accepted since the sink started. */
  received(): number;
  /** Resolves once `total` messages have been accepted since the sink started; rejects after a minute without one. */
  until(total: number): Promise<void>;
  /** The messages kept since the last take, in the order they were accepted. */
  take(): Buffer[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let received = 0;
  let kept: Buffer[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        kept.push(Buffer.concat(chunks));
        received += 1;
        for (const waiter of waiters.filter((w) => received >= w.count)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  return {
    port: (server.server.address() as AddressInfo).port,
    received: () => received,
    until: (total) =>
      new Promise<void>((resolve, reject) => {
        if (received >= total) return resolve();
        let seen = received;
        const stalled = setInterval(() => {
          if (received > seen) seen = received;
          else {
            clearInterval(stalled);
            reject(new Error(`the SMTP sink holds ${received} messages and waits for ${total}: no message for a minute`));
          }
        }, 60_000);
        waiters.push({ count: total, resolve: () => (clearInterval(stalled), resolve()) });
      }),
    take: () => {
      const taken = kept;
      kept = [];
      return taken;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
