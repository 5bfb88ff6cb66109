import { createPrivateKey } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { SetUpOperatorSender } from "../core/company/set-up-operator-sender.js";
import { DkimKeys } from "../core/delivery/ports.js";
import { OPERATOR } from "../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { createLogger } from "../hosts/logger.js";
import { startRuntime } from "../hosts/runtime.js";
import { createWorker } from "../hosts/worker/create-worker.js";
import { close, count, jsonPoster, listen } from "./settings.js";

/**
 * Transactional sends from the API to an SMTP sink on loopback: N requests of
 * `POST /api/v1/transactional/send` (direct content with merge tags, one recipient each, 10 at
 * a time), each rendered, queued and delivered by the worker (concurrency 8) through the SMTP
 * adapter, timed from the first request until the sink has received the N-th message. Baseline:
 * nodemailer with the same pool settings sending the message the API produced (prerendered),
 * DKIM-signed with the same key as ours are (given as its PEM text, as nodemailer documents it),
 * N times, 10 at a time, to the same sink. Both in messages per second, in the same process, in
 * alternating rounds. A second baseline given the key already parsed is reported on stderr.
 */

const GOAL = 0.5;
const SENDER = "hello@bench.example";
const IN_FLIGHT = 10;
/** The two sides take turns, so a machine that gets busier or quieter meanwhile affects both alike. */
const ROUNDS = count("BENCH_ROUNDS", 4);
/** 50 sends a second per key (the transactional budget): enough keys for the rate. */
const KEYS = 200;
const POOL = { pool: true, maxConnections: 5, maxMessages: 100 } as const;

async function sink() {
  let received = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
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
    /** Resolves once `total` messages have arrived since the sink started. */
    until: (total: number) => new Promise<void>((resolve) => (received >= total ? resolve() : waiters.push({ count: total, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs `task(i)` for i in [0, n), `width` at a time. */
async function inParallel(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

export async function transactionalSend(): Promise<string> {
  const messages = count("BENCH_MESSAGES", 2_000);
  const smtp = await sink();
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`,
    logger: createLogger("silent"),
    baseUrl: "http://127.0.0.1",
    mailUrl: `smtp://127.0.0.1:${smtp.port}`,
  });
  const worker = createWorker(runtime.container, { concurrency: 8, pollMs: 50 });
  const server = await listen(createHttpApp(runtime.container));
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const sender = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, SENDER);
    if (sender._tag === "Left") throw new Error(sender.left.message);
    const keys = [company.ownerKey];
    for (let i = 1; i < KEYS; i++)
      keys.push((await createMemberKeyFixture(runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
    const post = jsonPoster(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/transactional/send`, IN_FLIGHT);
    const send = async (i: number) => {
      const response = await post(
        { authorization: `Bearer ${keys[i % keys.length]}` },
        {
          to: `reader-${i}@example.org`,
          subject: "Your receipt {{ orderId }}",
          body: '<p>Hi {{ name }}, thanks for order {{ orderId }}.</p><p><a href="https://bench.example/orders">See your orders</a></p>',
          variables: { name: "Reader", orderId: `A-${i}` },
        },
      );
      if (response.status !== 200) throw new Error(`bench transactional-send: the API answered ${response.status} ${response.text}`);
    };
    await worker.start();

    // Warm-up (and the message the baseline sends: the API's own output for one recipient).
    await inParallel(50, IN_FLIGHT, send);
    await smtp.until(50);
    const row = await runtime.knex("email_sends").first("subject", "html", "text", "sender_email");
    const dkim = await runtime.container.get<DkimKeys>(DkimKeys).find(company.companyId, SENDER.split("@")[1]!);
    if (!dkim) throw new Error("bench transactional-send: the sender's domain has no DKIM key");
    // The baseline is nodemailer as documented: its DKIM key given as the PEM text. A second one
    // is given the key already parsed (which nodemailer's types do not offer, but crypto takes),
    // as our SMTP adapter does, to show how much of the difference that alone makes.
    const documented = nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true, ...POOL, dkim });
    const parsedKey = { ...dkim, privateKey: createPrivateKey(dkim.privateKey) as unknown as string };
    const preparsed = nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true, ...POOL, dkim: parsedKey });
    const sendBare = (transporter: typeof documented) => (i: number) =>
      transporter
        .sendMail({ from: row.sender_email, to: `reader-${i}@example.org`, subject: row.subject, html: row.html, text: row.text })
        .then(() => undefined);
    process.stderr.write(
      `transactional-send: ${messages} messages a side in ${ROUNDS} alternating rounds, ${IN_FLIGHT} requests in flight, worker concurrency 8\n`,
    );
    try {
      // The baselines' warm-up: their pools connected and their code paths hot, like the API's.
      await inParallel(50, IN_FLIGHT, sendBare(documented));
      await inParallel(50, IN_FLIGHT, sendBare(preparsed));
      let sent = 50;
      let apiSeconds = 0;
      let bareSeconds = 0;
      let preparsedSeconds = 0;
      const timed = async (task: () => Promise<void>): Promise<number> => {
        const start = performance.now();
        await task();
        return (performance.now() - start) / 1000;
      };
      for (let round = 0; round < ROUNDS; round++) {
        const share = Math.floor(messages / ROUNDS) + (round < messages % ROUNDS ? 1 : 0);
        const first = sent;
        apiSeconds += await timed(async () => {
          const before = smtp.received();
          await inParallel(share, IN_FLIGHT, (i) => send(first + i));
          await smtp.until(before + share);
        });
        sent += share;
        bareSeconds += await timed(() => inParallel(share, IN_FLIGHT, sendBare(documented)));
        preparsedSeconds += await timed(() => inParallel(share, IN_FLIGHT, sendBare(preparsed)));
        process.stderr.write(`  round ${round + 1}/${ROUNDS} done\n`);
      }
      const apiRate = messages / apiSeconds;
      const bareRate = messages / bareSeconds;
      const preparsedRate = messages / preparsedSeconds;
      process.stderr.write(`  api: ${Math.round(apiRate)} messages/s, baseline: ${Math.round(bareRate)} messages/s\n`);
      process.stderr.write(
        `  against nodemailer given the parsed key too: ${Math.round(preparsedRate)} messages/s = ratio ${(apiRate / preparsedRate).toFixed(2)}\n`,
      );
      return `bench transactional-send: ${Math.round(apiRate)} messages/s vs baseline ${Math.round(bareRate)} messages/s = ratio ${(apiRate / bareRate).toFixed(2)} (goal >= ${GOAL})`;
    } finally {
      documented.close();
      preparsed.close();
    }
  } finally {
    await worker.stop();
    await close(server);
    await runtime.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
