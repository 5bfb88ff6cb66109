import { createPrivateKey } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Knex } from "knex";
import nodemailer from "nodemailer";
import { toDbDate } from "../adapters/knex/row-codecs.js";
import { SetUpOperatorSender } from "../core/company/set-up-operator-sender.js";
import { DkimKeys } from "../core/delivery/ports.js";
import { OPERATOR } from "../core/shared/actor.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { startRuntime } from "../hosts/runtime.js";
import { createWorker } from "../hosts/worker/create-worker.js";
import { inParallel } from "./in-parallel.js";
import { infoLogTo } from "./log-file.js";
import { checkTally, numberedBelow } from "./mail-check.js";
import { MB, watchMemory } from "./memory-watch.js";
import { alternate, ratioLine } from "./rounds.js";
import { close, count, listen } from "./settings.js";
import { SmtpTally, type TallyReport } from "./smtp-tally.js";

/**
 * One campaign to every contact of a company (BENCH_CAMPAIGN_CONTACTS, 100,000), delivered by
 * the worker (default settings: concurrency 1, batches of 500, the SMTP adapter's pool of 5
 * connections, DKIM-signed) to an SMTP sink on loopback in a process of its own, timed from the
 * schedule request until the sink holds the last message. Baseline, in the same round: the same
 * rendered messages (subject, HTML, text, unsubscribe headers, read back from the product's
 * sends, untimed, 500 at a time) sent by nodemailer with the same pool to the same sink, signed
 * with the same key parsed once, 50 in flight (the product keeps 20 in its pool). Each round's
 * product side goes first, since its baseline replays what it made. The sink counts every
 * recipient (each must get exactly one message) and checks every message is signed; one in a
 * hundred is parsed and its signature verified. The product's peak RSS growth is printed.
 */

const NAME = "campaign-send";
const GOAL = 0.8;
const MEMORY_GOAL_MB = 150;
const SENDER = "news@bench.example";
const RECIPIENT = /^reader(\d+)@inbox\.example$/;
const recipientOf = (n: number) => `reader${n}@inbox.example`;
const firstNameOf = (n: number) => `Reader${n}`;
/** Knex writes a multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms. */
const SEED_BATCH = 400;
/**
 * Messages in flight: the product's delivery jobs take 50 sends each, one job at a time (the
 * worker's default concurrency 1), and keep 20 of them in the pool of 5 connections; the baseline
 * keeps a job's 50 in flight (more waiting in the pool can only help it).
 */
const IN_FLIGHT = 50;
/** Sends the baseline reads at a time (untimed): a campaign batch's worth. */
const PAGE = 500;
/** The SMTP adapter's pool (adapters/smtp), given to the baseline too. */
const POOL = { pool: true, maxConnections: 5, maxMessages: 100 } as const;
const WARMUP = 200;
const HTML_MARK = "here is the news of the week";

/** Every contact active, with a first name for the merge tag. */
async function seed(knex: Knex, companyId: string, contacts: number): Promise<void> {
  const at = toDbDate(new Date("2026-01-01T00:00:00.000Z"));
  await knex.transaction(async (trx) => {
    for (let start = 0; start < contacts; start += SEED_BATCH) {
      const rows = [];
      for (let n = start; n < Math.min(start + SEED_BATCH, contacts); n += 1) {
        rows.push({
          id: `sub_bench_${String(n).padStart(7, "0")}`,
          company_id: companyId,
          email: recipientOf(n),
          first_name: firstNameOf(n),
          status: "active",
          custom_attributes: "{}",
          created_at: at,
          updated_at: at,
        });
      }
      await trx("subscribers").insert(rows);
    }
  });
}

/** What the bench reads of the API's campaign answers. */
interface CampaignAnswer {
  readonly campaign: { readonly id: string; readonly status: string; readonly progress: { readonly recipients: number; readonly sent: number } | null };
}

interface SendRow {
  readonly id: string;
  readonly recipient_email: string;
  readonly subject: string;
  readonly html: string | null;
  readonly text: string | null;
  readonly sender_email: string;
  readonly sender_name: string | null;
  readonly reply_to: string | null;
  readonly payload: string | Record<string, unknown> | null;
}

const unsubscribeUrlOf = (payload: SendRow["payload"]): string | null => {
  const parsed = typeof payload === "string" ? (JSON.parse(payload) as Record<string, unknown>) : payload;
  return typeof parsed?.unsubscribeUrl === "string" ? parsed.unsubscribeUrl : null;
};

export async function campaignSend(): Promise<string> {
  const contacts = count("BENCH_CAMPAIGN_CONTACTS", 100_000);
  const rounds = count("BENCH_ROUNDS", 2);
  const concurrency = count("BENCH_WORKER_CONCURRENCY", 1);
  const tally = await SmtpTally.start();
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`,
    logger: infoLogTo(join(dir, "product.log")),
    baseUrl: "http://127.0.0.1",
    mailUrl: `smtp://127.0.0.1:${tally.port}`,
  });
  const worker = createWorker(runtime.container, { concurrency });
  const server = await listen(createHttpApp(runtime.container));
  let transporter: ReturnType<typeof nodemailer.createTransport> | undefined;
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const sender = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, SENDER);
    if (sender._tag === "Left") throw new Error(sender.left.message);
    const dkim = await runtime.container.get<DkimKeys>(DkimKeys).find(company.companyId, SENDER.split("@")[1]!);
    if (!dkim) throw new Error(`bench ${NAME}: the sender's domain has no DKIM key`);
    const seeding = performance.now();
    await seed(runtime.knex, company.companyId, contacts);
    process.stderr.write(`${NAME}: ${contacts} contacts seeded in ${Math.round(performance.now() - seeding)} ms\n`);
    await worker.start();

    const api = async (method: string, path: string, body?: unknown): Promise<CampaignAnswer> => {
      for (let attempt = 1; ; attempt += 1) {
        let response: Response;
        try {
          response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${company.ownerKey}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
        } catch (error) {
          // A read whose connection failed is asked again, as a client would (a full record lost its campaign round
          // to one "fetch failed" after the send); the cause is printed, and a write is never sent twice.
          const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
          if (method !== "GET" || attempt >= 5) throw new Error(`bench ${NAME}: ${method} ${path} failed: ${cause}`, { cause: error });
          process.stderr.write(`  ${method} ${path} failed (${cause}); asked again\n`);
          await new Promise((resolve) => setTimeout(resolve, 250));
          continue;
        }
        const answer = (await response.json()) as CampaignAnswer;
        if (response.status === 200) return answer;
        // The app sheds requests (503) while its event loop lags, as a busy machine makes it: retried, as a client would.
        if (response.status === 503 && attempt < 20) await new Promise((resolve) => setTimeout(resolve, 250));
        else throw new Error(`bench ${NAME}: ${method} ${path} answered ${response.status} ${JSON.stringify(answer)}`);
      }
    };

    const verify = async (side: string, expected: number, report: TallyReport) =>
      checkTally(
        `bench ${NAME}: ${side}`,
        expected,
        report,
        {
          from: SENDER,
          isRecipient: numberedBelow(RECIPIENT, contacts),
          subjectOf: (to) => `News for ${firstNameOf(Number(RECIPIENT.exec(to)?.[1]))}`,
          htmlIncludes: HTML_MARK,
        },
        dkim,
      );
    const phase = (expected: number) => tally.expect(RECIPIENT, contacts, expected);

    /** A new campaign to every contact (or the first `limit`), scheduled now; timed until the sink holds its last message. */
    let peakGrowth = 0;
    const campaignIds = new Map<number, string>();
    const productRound = async (round: number, limit: number | null = null): Promise<number> => {
      const expected = limit ?? contacts;
      await phase(expected);
      const { campaign } = await api("POST", "/campaigns", {
        name: `Bench news ${round}`,
        subject: "News for {{ firstName }}",
        blocks: [
          { type: "heading", content: "This week", level: 1 },
          { type: "text", content: `Hi {{ firstName }}, ${HTML_MARK}.` },
          { type: "button", text: "Read more", url: "https://bench.example/news" },
        ],
      });
      campaignIds.set(round, campaign.id);
      const rssBefore = process.memoryUsage().rss;
      const peak = watchMemory();
      const started = performance.now();
      await api("POST", `/campaigns/${campaign.id}/schedule`, { scheduledAt: new Date().toISOString(), ...(limit !== null ? { maxRecipients: limit } : {}) });
      await tally.until(expected);
      const seconds = (performance.now() - started) / 1000;
      // Sent once the finish job has seen every delivery done (it looks again every few seconds).
      let state: CampaignAnswer["campaign"] = { id: campaign.id, status: "scheduled", progress: null };
      for (let wait = 0; wait < 600 && state.status !== "sent"; wait += 1) {
        state = (await api("GET", `/campaigns/${campaign.id}`)).campaign;
        if (state.status !== "sent") await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const growth = (peak() - rssBefore) / MB;
      if (state.status !== "sent" || state.progress?.recipients !== expected || state.progress?.sent !== expected) {
        throw new Error(`bench ${NAME}: the campaign is ${state.status} with progress ${JSON.stringify(state.progress)}`);
      }
      await verify("product", expected, await tally.report());
      if (limit === null) peakGrowth = Math.max(peakGrowth, growth);
      process.stderr.write(`  product round ${round}: ${expected} messages in ${seconds.toFixed(1)} s, RSS +${Math.round(growth)} MB\n`);
      return expected / seconds;
    };

    transporter = nodemailer.createTransport({
      host: "127.0.0.1",
      port: tally.port,
      secure: false,
      ...POOL,
      // A KeyObject, which nodemailer's types do not list but its signer (node:crypto) takes.
      dkim: { ...dkim, privateKey: createPrivateKey(dkim.privateKey) as unknown as string },
    });
    /** The product's messages of the same round, read 500 at a time (untimed) and sent 500 in flight (timed). */
    const baselineRound = async (round: number): Promise<number> => {
      const campaignId = campaignIds.get(round)!;
      let sent = 0;
      let seconds = 0;
      await phase((await runtime.knex("email_sends").where({ campaign_id: campaignId }).count({ n: "*" }).first())!.n as number);
      for (let after = ""; ;) {
        const page: SendRow[] = await runtime
          .knex("email_sends")
          .leftJoin("email_send_contents", "email_send_contents.email_send_id", "email_sends.id")
          .where({ campaign_id: campaignId })
          .andWhere("id", ">", after)
          .orderBy("id")
          .limit(PAGE)
          .select("id", "recipient_email", "subject", "html", "text", "sender_email", "sender_name", "reply_to", "payload");
        if (page.length === 0) break;
        after = page.at(-1)!.id;
        const started = performance.now();
        await inParallel(page.length, IN_FLIGHT, async (i) => {
          const row = page[i]!;
          const unsubscribeUrl = unsubscribeUrlOf(row.payload);
          await transporter!.sendMail({
            from: row.sender_name ? { name: row.sender_name, address: row.sender_email } : row.sender_email,
            to: row.recipient_email,
            ...(row.reply_to ? { replyTo: row.reply_to } : {}),
            subject: row.subject,
            ...(row.html ? { html: row.html } : {}),
            ...(row.text ? { text: row.text } : {}),
            headers: unsubscribeUrl ? { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {},
          });
        });
        seconds += (performance.now() - started) / 1000;
        sent += page.length;
      }
      await tally.until(sent);
      await verify("baseline", sent, await tally.report());
      return sent / seconds;
    };

    // Warm-up: a small campaign each way (JIT, pools, the SQLite page cache).
    await productRound(0, WARMUP);
    await baselineRound(0);

    process.stderr.write(`${NAME}: ${contacts} contacts a campaign, ${rounds} rounds, product first in each\n`);
    const comparison = await alternate(NAME, rounds, "messages/s", baselineRound, (round) => productRound(round), { productFirst: true });
    const memory = peakGrowth < MEMORY_GOAL_MB ? "met" : "missed";
    return ratioLine(NAME, "messages/s", comparison, GOAL, [
      `peak RSS growth +${Math.round(peakGrowth)} MB (goal < ${MEMORY_GOAL_MB} MB: ${memory})`,
      `${contacts} contacts`,
      "LOG_LEVEL=info to a file",
      ...(concurrency !== 1 ? [`worker --concurrency ${concurrency}`] : []),
    ]);
  } finally {
    transporter?.close();
    await worker.stop();
    await close(server);
    await runtime.close();
    await tally.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
