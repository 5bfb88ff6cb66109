import { createPrivateKey } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { SetUpOperatorSender } from "../core/company/set-up-operator-sender.js";
import { DkimKeys } from "../core/delivery/ports.js";
import { OPERATOR } from "../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { startRuntime } from "../hosts/runtime.js";
import { createWorker } from "../hosts/worker/create-worker.js";
import { HttpLoad, type LoadPlan } from "./http-load.js";
import { inParallel } from "./in-parallel.js";
import { infoLogTo } from "./log-file.js";
import { checkTally, numberedBelow } from "./mail-check.js";
import { alternate, ratioLine } from "./rounds.js";
import { close, count, listen } from "./settings.js";
import { SmtpTally } from "./smtp-tally.js";

/**
 * Transactional sends from the API to an SMTP sink on loopback: N requests of
 * `POST /api/v1/transactional/send` (direct content with merge tags, one recipient each, 10 at a
 * time, from autocannon in a process of its own), each rendered, queued and delivered by the
 * worker through the SMTP adapter (DKIM-signed, pooled), timed from the first request until the
 * sink holds the last message. Baseline: what an expert would write to send the same message,
 * nodemailer pooled the same way to the same sink, signing with the same DKIM key parsed once (a
 * KeyObject, as our adapter does), N times, 10 at a time. Alternating rounds. The sink runs in a
 * process of its own: it counts every message of both sides by recipient and checks it is
 * signed, and about a hundred of each round are parsed and their signatures verified.
 */

const NAME = "transactional-send";
const GOAL = 0.7;
const SENDER = "hello@bench.example";
const IN_FLIGHT = 10;
/** `lifecycle worker --concurrency 8` (the default is 1): the line says so. */
const WORKER_CONCURRENCY = 8;
/** 50 sends a second per key (the transactional budget): enough keys for the rate. */
const KEYS = 200;
const WARMUP = 50;
/** The SMTP adapter's pool (adapters/mail), given to the baseline too. */
const POOL = { pool: true, maxConnections: 5, maxMessages: 100 } as const;
const HTML_MARK = "See your orders";

const seconds = async (task: () => Promise<void>): Promise<number> => {
  const start = performance.now();
  await task();
  return (performance.now() - start) / 1000;
};

export async function transactionalSend(): Promise<string> {
  const messages = count("BENCH_MESSAGES", 2_000);
  const rounds = count("BENCH_ROUNDS", 4);
  const share = Math.ceil(messages / rounds);
  const tally = await SmtpTally.start();
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`,
    logger: infoLogTo(join(dir, "product.log")),
    baseUrl: "http://127.0.0.1",
    mailUrl: `smtp://127.0.0.1:${tally.port}`,
  });
  const worker = createWorker(runtime.container, { concurrency: WORKER_CONCURRENCY });
  const server = await listen(createHttpApp(runtime.container));
  const load = await HttpLoad.start();
  let transporter: ReturnType<typeof nodemailer.createTransport> | undefined;
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const sender = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, SENDER);
    if (sender._tag === "Left") throw new Error(sender.left.message);
    const dkim = await runtime.container.get<DkimKeys>(DkimKeys).find(company.companyId, SENDER.split("@")[1]!);
    if (!dkim) throw new Error(`bench ${NAME}: the sender's domain has no DKIM key`);
    const keys = [company.ownerKey];
    for (let i = 1; i < KEYS; i++)
      keys.push((await createMemberKeyFixture(runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
    await worker.start();

    // Request n of a run goes to `reader-<run>-<n>`, with its own order number in the subject.
    const plan = (run: string): LoadPlan => ({
      label: "product",
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/transactional/send`,
      method: "POST",
      connections: IN_FLIGHT,
      keys,
      bodies: [
        JSON.stringify({
          to: `reader-${run}-{n}@example.org`,
          subject: "Your receipt {{ orderId }}",
          body: `<p>Hi {{ name }}, thanks for order {{ orderId }}.</p><p><a href="https://bench.example/orders">${HTML_MARK}</a></p>`,
          variables: { name: "Reader", orderId: `A-${run}-{n}` },
        }),
      ],
    });
    const readers = (run: string) => new RegExp(`^reader-${run}-(\\d+)@example\\.org$`);
    const sendThroughApi = async (run: string, n: number): Promise<number> => {
      await tally.expect(readers(run), n);
      // autocannon ends a run on its next one-second tick, so the clock stops when the sink has
      // the last message, not when autocannon returns (whose count of 2xx is checked after).
      const answered = load.run(plan(run), { amount: n });
      const reached = tally.until(n);
      const taken = await seconds(() => Promise.race([reached, answered.then(() => reached)]));
      await answered;
      await checkTally(
        `bench ${NAME}: product`,
        n,
        await tally.report(),
        {
          from: SENDER,
          isRecipient: numberedBelow(readers(run), n),
          subjectOf: (to) => `Your receipt A-${run}-${readers(run).exec(to)![1]}`,
          htmlIncludes: HTML_MARK,
        },
        dkim,
      );
      return n / taken;
    };

    // Warm-up, which also makes the message the baseline sends: the API's own output.
    await sendThroughApi("w", WARMUP);
    const row = await runtime
      .knex("email_sends")
      .leftJoin("email_send_contents", "email_send_contents.email_send_id", "email_sends.id")
      .where({ recipient_email: "reader-w-0@example.org" })
      .first("subject", "html", "text", "sender_email");
    transporter = nodemailer.createTransport({
      host: "127.0.0.1",
      port: tally.port,
      secure: false,
      ignoreTLS: true,
      ...POOL,
      // A KeyObject, which nodemailer's types do not list but its signer (node:crypto) takes.
      dkim: { ...dkim, privateKey: createPrivateKey(dkim.privateKey) as unknown as string },
    });
    const sendBare = async (run: string, n: number): Promise<number> => {
      const recipients = Array.from({ length: n }, (_, i) => `direct-${run}-${i}@example.org`);
      const directs = new RegExp(`^direct-${run}-(\\d+)@example\\.org$`);
      await tally.expect(directs, n);
      const taken = await seconds(() =>
        inParallel(n, IN_FLIGHT, async (i) => {
          await transporter!.sendMail({ from: row.sender_email, to: recipients[i], subject: row.subject, html: row.html, text: row.text });
        }),
      );
      await tally.until(n);
      const sample = {
        from: SENDER,
        isRecipient: numberedBelow(directs, n),
        subjectOf: () => row.subject,
        htmlIncludes: HTML_MARK,
      };
      await checkTally(`bench ${NAME}: baseline`, n, await tally.report(), sample, dkim);
      return n / taken;
    };
    await sendBare("w", WARMUP);

    process.stderr.write(`${NAME}: ${share} messages a side a round, ${rounds} rounds, ${IN_FLIGHT} in flight, worker concurrency ${WORKER_CONCURRENCY}\n`);
    const comparison = await alternate(
      NAME,
      rounds,
      "messages/s",
      (round) => sendBare(String(round), share),
      (round) => sendThroughApi(String(round), share),
    );
    return ratioLine(NAME, "messages/s", comparison, GOAL, ["LOG_LEVEL=info to a file", `worker --concurrency ${WORKER_CONCURRENCY}`]);
  } finally {
    transporter?.close();
    await load.close();
    await worker.stop();
    await close(server);
    await runtime.close();
    await tally.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
