import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { SMTPServer } from "smtp-server";
import type { TallyOrder, TallyReport } from "./smtp-tally.js";

/**
 * An SMTP sink in a process of its own (forked by smtp-tally.ts), for sends too large to keep:
 * it tallies each message by its envelope recipient (`<prefix><n>@<domain>`, n below the phase's
 * size) in one byte per recipient, checks every message carries a DKIM signature of the expected
 * domain and selector, and keeps every `sampleEvery`-th message whole for the parent to parse and
 * verify. Its work and buffers are counted in neither side's time nor memory.
 */

interface Phase {
  readonly size: number;
  readonly pattern: RegExp;
  readonly signature: string;
  readonly sampleEvery: number;
  readonly seen: Uint8Array;
  received: number;
  duplicates: number;
  outside: number;
  unsigned: number;
  readonly samples: string[];
}

const MAX_SAMPLES = 200;
let phase: Phase | null = null;
let waiter: { total: number; lastSeen: number; idleTimer: NodeJS.Timeout } | null = null;

function tally(recipients: readonly string[], raw: Buffer): void {
  if (!phase) return;
  phase.received += 1;
  const headerEnd = raw.indexOf("\r\n\r\n");
  const header = raw.subarray(0, headerEnd === -1 ? raw.length : headerEnd).toString("latin1");
  if (!header.includes(phase.signature)) phase.unsigned += 1;
  for (const recipient of recipients) {
    const n = Number(phase.pattern.exec(recipient)?.[1] ?? Number.NaN);
    if (!Number.isInteger(n) || n >= phase.size) phase.outside += 1;
    else if (phase.seen[n] === 1) phase.duplicates += 1;
    else phase.seen[n] = 1;
  }
  if ((phase.received - 1) % phase.sampleEvery === 0 && phase.samples.length < MAX_SAMPLES) phase.samples.push(raw.toString("base64"));
  if (waiter && phase.received >= waiter.total) {
    clearInterval(waiter.idleTimer);
    waiter = null;
    process.send!({ reached: phase.received });
  }
}

const server = new SMTPServer({
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  size: 10 * 1024 * 1024,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      tally(
        session.envelope.rcptTo.map((r) => r.address),
        Buffer.concat(chunks),
      );
      callback();
    });
  },
});
server.listen(0, "127.0.0.1");
await once(server.server, "listening");

process.on("message", (order: TallyOrder) => {
  if (order.op === "phase") {
    phase = {
      size: order.size,
      pattern: new RegExp(order.pattern),
      signature: order.signature,
      sampleEvery: order.sampleEvery,
      seen: new Uint8Array(order.size),
      received: 0,
      duplicates: 0,
      outside: 0,
      unsigned: 0,
      samples: [],
    };
    process.send!({ ready: true });
  } else if (order.op === "until") {
    if (phase && phase.received >= order.total) return void process.send!({ reached: phase.received });
    // A minute without a new message fails the wait.
    const lastSeen = phase?.received ?? 0;
    waiter = {
      total: order.total,
      lastSeen,
      idleTimer: setInterval(() => {
        if (!waiter) return;
        const now = phase?.received ?? 0;
        if (now > waiter.lastSeen) waiter.lastSeen = now;
        else {
          clearInterval(waiter.idleTimer);
          waiter = null;
          process.send!({ stalled: now });
        }
      }, 60_000),
    };
  } else {
    const current = phase;
    const report: TallyReport = current
      ? {
          received: current.received,
          distinct: current.seen.reduce((sum, bit) => sum + bit, 0),
          duplicates: current.duplicates,
          outside: current.outside,
          unsigned: current.unsigned,
          samples: current.samples,
        }
      : { received: 0, distinct: 0, duplicates: 0, outside: 0, unsigned: 0, samples: [] };
    process.send!({ report });
  }
});
process.send!({ port: (server.server.address() as AddressInfo).port });
process.on("disconnect", () => server.close(() => process.exit(0)));
