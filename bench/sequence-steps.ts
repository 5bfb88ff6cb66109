import { createPrivateKey } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { toDbDate } from "../adapters/knex/row-codecs.js";
import { SetUpOperatorSender } from "../core/company/set-up-operator-sender.js";
import { DkimKeys } from "../core/delivery/ports.js";
import type { Clock } from "../core/ports/clock.js";
import { AdvanceEnrollments } from "../core/sequences/advance-enrollments.js";
import { OPERATOR } from "../core/shared/actor.js";
import { createCompanyFixture, createMemberKeyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { startRuntime } from "../hosts/runtime.js";
import { createWorker } from "../hosts/worker/create-worker.js";
import { HttpLoad, type LoadPlan } from "./http-load.js";
import { infoLogTo } from "./log-file.js";
import { checkTally, numberedBelow } from "./mail-check.js";
import { alternate, ratioLine } from "./rounds.js";
import { close, count, listen } from "./settings.js";
import { SmtpTally } from "./smtp-tally.js";
import { median, percentile } from "./statistics.js";

/**
 * A sequence's steps at scale: contacts each record one event (`POST /api/v1/subscribers/events`
 * from autocannon in its own process) that starts a sequence email -> 1-day delay -> email; the
 * worker sends the first wave, the clock is moved one day on, and the worker sends the second.
 * The figure is the emails the SMTP sink accepted per second over both waves (the engine's steps,
 * rendering, queueing, delivery through the SMTP adapter with DKIM). Baseline: nodemailer pooled
 * the same way sending as many of the product's own rendered messages, signed with the same DKIM
 * key parsed once, to the same sink. The sink runs in a process of its own: it counts every
 * message of both sides by recipient and checks it is signed, and about a hundred of each wave
 * are parsed and their signatures verified. The event ingest rate is printed on the line,
 * outside the figure, and so is the engine's latency for a new run: while the second wave's
 * follow-ups are worked, contacts sign up one by one, and the time from each event to its
 * first queued email (the product's own timestamps) is taken at the 99th percentile.
 */

const NAME = "sequence-steps";
const GOAL = 0.5;
const SENDER = "hello@bench.example";
const EVENT = "signed_up";
const DAY_MS = 24 * 60 * 60 * 1000;
/** `lifecycle worker --concurrency 8` (the default is 1): the line says so. */
const WORKER_CONCURRENCY = 8;
const IN_FLIGHT = 10;
/** Events a key sends at most (300 a minute per key): enough keys for the whole run. */
const EVENTS_PER_KEY = 40;
const MAX_KEYS = 2_500;
/** The company ceiling this run needs: every key's budget together. */
const COMPANY_RATE_PER_MINUTE = 1_000_000;
const WARMUP = 50;
const CONTACT_BATCH = 400;
/** Contacts who sign up while a round's second wave is worked, one every PROBE_INTERVAL_MS. */
const PROBE_INTERVAL_MS = 250;
/** Event to first queued email, at the 99th percentile while the second wave goes on (issue goal, SQLite). */
const LATENCY_GOAL_MS = 1_000;
/** The SMTP adapter's pool (adapters/mail), given to the baseline too. */
const POOL = { pool: true, maxConnections: 5, maxMessages: 100 } as const;
const HTML_MARK = "Open your dashboard";
/** How often a wait for the engine counts the runs. */
const SETTLED_POLL_MS = 1_000;
/** A wait for the engine fails once its count has not moved for this long. */
const STALL_MS = 120_000;

/** Real time, moved on by whole days when the benchmark says so (rate limits keep counting real seconds). */
class ShiftedClock implements Clock {
  private offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

async function inParallel(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

const seconds = async (task: () => Promise<void>): Promise<number> => {
  const start = performance.now();
  await task();
  return (performance.now() - start) / 1000;
};

const email = (run: string, i: number) => `reader-${run}-${i}@example.org`;
const firstName = (run: string, i: number) => `R${run}x${i}`;
/** The product's recipients of a run (n is the first group), and the baseline's. */
const readers = (run: string) => new RegExp(`^reader-${run}-(\\d+)@example\\.org$`);
const directs = (run: string) => new RegExp(`^direct-${run}-(\\d+)@example\\.org$`);
/** The first name a product message's recipient was given. */
const nameOf = (to: string) => {
  const [, run, i] = /^reader-(.+)-(\d+)@/.exec(to)!;
  return firstName(run!, Number(i));
};

export async function sequenceSteps(): Promise<string> {
  const contacts = count("BENCH_SEQUENCE_CONTACTS", 100_000);
  const rounds = count("BENCH_ROUNDS", 2);
  const probes = count("BENCH_SEQUENCE_PROBES", 100);
  const share = Math.ceil(contacts / rounds);
  const tally = await SmtpTally.start();
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const clock = new ShiftedClock();
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`,
    logger: infoLogTo(join(dir, "product.log")),
    baseUrl: "http://127.0.0.1",
    mailUrl: `smtp://127.0.0.1:${tally.port}`,
    clock,
    capacity: { companyPerMinute: COMPANY_RATE_PER_MINUTE },
  });
  const { knex, container } = runtime;
  const server = await listen(createHttpApp(container));
  const load = await HttpLoad.start();
  let transporter: ReturnType<typeof nodemailer.createTransport> | undefined;
  try {
    const company = await createCompanyFixture(container, { name: "Bench Company" });
    const sender = await container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, SENDER);
    if (sender._tag === "Left") throw new Error(sender.left.message);
    const dkim = await container.get<DkimKeys>(DkimKeys).find(company.companyId, SENDER.split("@")[1]!);
    if (!dkim) throw new Error(`bench ${NAME}: the sender's domain has no DKIM key`);
    // The requests sent one by one (set-up, shed events sent again, sign-ups) have a key of their own, outside the ingest's rotation.
    const ownKey = (await createMemberKeyFixture(container, company.companyId, { role: "owner", email: company.ownerEmail })).key;
    const keys = [company.ownerKey];
    const keyCount = Math.min(MAX_KEYS, Math.ceil((contacts + WARMUP) / EVENTS_PER_KEY));
    for (let i = 1; i < keyCount; i++)
      keys.push((await createMemberKeyFixture(container, company.companyId, { role: "owner", email: company.ownerEmail })).key);

    /**
     * A request sent on its own; one the app sheds (503, its event loop lagging behind the run's
     * own work) is sent again after half a second, one it holds back (429) after the Retry-After
     * it names, as a client would.
     */
    const api = async (method: string, path: string, body?: unknown, key = ownKey): Promise<Record<string, unknown>> => {
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, {
          method,
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        const answer = (await response.json()) as Record<string, unknown>;
        const wait = response.status === 503 ? 500 : response.status === 429 ? 1_000 * Number(response.headers.get("retry-after") ?? 1) : 0;
        if (wait > 0 && attempt < 20) await new Promise((resolve) => setTimeout(resolve, wait));
        else if (!response.ok) throw new Error(`bench ${NAME}: ${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
        else return answer;
      }
    };
    const created = (await api("POST", "/api/v1/sequences", {
      name: "Onboarding",
      trigger: "event_received",
      eventName: EVENT,
      enrollmentMode: "one_time",
      steps: [
        {
          subject: "Welcome {{firstName}}",
          html: `<p>Hi {{firstName}}, your plan: {{event.plan}}.</p><p><a href="https://bench.example/start">${HTML_MARK}</a></p>`,
        },
        { subject: "Day two, {{firstName}}", html: `<p>Tips for {{firstName}}.</p><p><a href="https://bench.example/tips">${HTML_MARK}</a></p>`, delayDays: 1 },
      ],
    })) as { sequence: { id: string } };
    const sequenceId = created.sequence.id;
    await api("POST", `/api/v1/sequences/${sequenceId}/enable`);

    /**
     * The run's contacts, written straight into the table (they exist before their event): `n`
     * of them (IDs `...n<i>`), then the probes (IDs `...p<i>`, addresses numbered on from n).
     */
    const seed = async (run: string, n: number, probeCount = 0) => {
      const at = toDbDate(clock.now());
      await knex.transaction(async (trx) => {
        for (let start = 0; start < n + probeCount; start += CONTACT_BATCH)
          await trx("subscribers").insert(
            Array.from({ length: Math.min(CONTACT_BATCH, n + probeCount - start) }, (_, k) => ({
              id: start + k < n ? `sub_seqbench_r${run}n${start + k}` : `sub_seqbench_r${run}p${start + k - n}`,
              company_id: company.companyId,
              email: email(run, start + k),
              first_name: firstName(run, start + k),
              status: "active",
              sms_status: "not_subscribed",
              custom_attributes: "{}",
              created_at: at,
              updated_at: at,
            })),
          );
      });
    };
    const plan = (run: string): LoadPlan => ({
      label: "events",
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/subscribers/events`,
      method: "POST",
      connections: IN_FLIGHT,
      keys,
      bodies: [JSON.stringify({ email: `reader-${run}-{n}@example.org`, event: EVENT, properties: { plan: "pro" } })],
    });
    const enrollmentsOf = async (run: string, status: string): Promise<number> => {
      const row = await knex("sequence_enrollments")
        .where({ company_id: company.companyId, sequence_id: sequenceId, status })
        .andWhere("subscriber_id", "like", `sub_seqbench_r${run}n%`)
        .count({ n: "*" })
        .first();
      return Number(row?.n ?? 0);
    };
    /**
     * Waits until `reached()` counts `target`; fails only when the count stands still for two
     * minutes (a full-size wave takes longer than that, and moves all along). It asks once a
     * second: a count over the wave's enrollments runs in the product's own process, and asked
     * every few milliseconds it took a large share of the worker's time at full size.
     */
    const settled = async (what: string, reached: () => Promise<number>, target: number) => {
      let last = -1;
      let deadline = 0;
      for (let count = await reached(); count !== target; count = await reached()) {
        if (count !== last) [last, deadline] = [count, Date.now() + STALL_MS];
        if (Date.now() > deadline) throw new Error(`bench ${NAME}: ${what}: ${count} of ${target}, and no change for ${STALL_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, SETTLED_POLL_MS));
      }
    };
    const ingestRates: number[] = [];
    const latencies: number[] = [];
    /**
     * Probes sign up one by one while `busy()`, at most `most` of them; each
     * event enrolls its contact, whose first email the engine must queue while it works the
     * second wave's follow-ups. Resolves to the number that signed up.
     */
    const probe = async (run: string, n: number, most: number, busy: () => boolean): Promise<number> => {
      let sent = 0;
      for (; sent < most && busy(); sent++) {
        await api("POST", "/api/v1/subscribers/events", { email: email(run, n + sent), event: EVENT, properties: { plan: "pro" } });
        await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
      }
      return sent;
    };
    /** Each probe's event to its first queued email, in ms, by the product's own timestamps. */
    const probeLatencies = async (run: string): Promise<number[]> => {
      const rows: Array<{ received_at: string; queued_at: string }> = await knex("custom_events as e")
        // The company named on both sides: the sends' (company_id, subscriber_id, ...) index answers each event.
        .join("email_sends as s", (on) => on.on("s.company_id", "e.company_id").andOn("s.subscriber_id", "e.subscriber_id"))
        .where("e.company_id", company.companyId)
        .andWhere("e.subscriber_id", "like", `sub_seqbench_r${run}p%`)
        .groupBy("e.subscriber_id", "e.received_at")
        .select("e.received_at", knex.raw("min(s.created_at) as queued_at"));
      return rows.map((row) => Date.parse(row.queued_at) - Date.parse(row.received_at));
    };
    let shedSentAgain = 0;

    /** One product run: n contacts' events, then both waves; resolves to emails accepted per second over the waves. */
    const runSequence = async (run: string, n: number): Promise<number> => {
      const probeCount = run === "w" ? 0 : probes;
      await seed(run, n, probeCount);
      if (run === "w")
        // The warm-up's events one by one (a shed one sent again): it warms the engine and makes the baseline's messages.
        for (let i = 0; i < n; i++)
          await api("POST", "/api/v1/subscribers/events", { email: email(run, i), event: EVENT, properties: { plan: "pro" } }, keys[i % keys.length]);
      else {
        const ingest = await load.run(plan(run), { amount: n }, { shedSentAgain: true });
        ingestRates.push(n / ingest.seconds);
        // Events the server shed (503) go again one by one, as a client would send them: the figure is the waves'.
        // Two reads of the round's rows and a difference in memory: a correlated NOT EXISTS let SQLite's planner
        // pick the sequence's index and scan every enrollment for each contact (a full record hung there twice).
        const entered = new Set(
          await knex("sequence_enrollments")
            .where({ company_id: company.companyId, sequence_id: sequenceId })
            .andWhere("subscriber_id", "like", `sub_seqbench_r${run}n%`)
            .pluck("subscriber_id"),
        );
        const roundContacts: Array<{ id: string; email: string }> = await knex("subscribers")
          .where("company_id", company.companyId)
          .andWhere("id", "like", `sub_seqbench_r${run}n%`)
          .select("id", "email");
        const shed = roundContacts.filter((contact) => !entered.has(contact.id)).map((contact) => contact.email);
        if (shed.length !== (ingest.statuses["503"] ?? 0))
          throw new Error(`bench ${NAME}: ${shed.length} contacts not enrolled after ${ingest.statuses["503"] ?? 0} shed events`);
        for (const address of shed) await api("POST", "/api/v1/subscribers/events", { email: address, event: EVENT, properties: { plan: "pro" } });
        shedSentAgain += shed.length;
      }
      const enrolled = await enrollmentsOf(run, "active");
      if (enrolled !== n) throw new Error(`bench ${NAME}: ${enrolled} of ${n} contacts entered the sequence`);
      const worker = createWorker(container, { concurrency: WORKER_CONCURRENCY });
      try {
        /** Each of the wave's recipients got its email once, signed; a sample says what it should. */
        const checkWave = async (wave: string, recipients: number, subjectOf: (to: string) => string) =>
          checkTally(
            `bench ${NAME}: product, ${wave} wave`,
            recipients,
            await tally.report(),
            {
              from: SENDER,
              isRecipient: numberedBelow(readers(run), recipients),
              subjectOf,
              htmlIncludes: HTML_MARK,
            },
            dkim,
          );
        // Wave one: the welcome emails, each run waiting at the delay.
        await tally.expect(readers(run), n);
        await worker.start();
        const first = await seconds(async () => {
          await tally.until(n);
          await settled("every run to wait at the delay", () => enrollmentsOf(run, "waiting"), n);
        });
        await checkWave("first", n, (to) => `Welcome ${nameOf(to)}`);
        // A day later: the sweep finds the delays that ended, as the worker's minute schedule does;
        // meanwhile probes sign up, and their welcome emails are part of the wave.
        clock.advance(DAY_MS);
        await tally.expect(readers(run), n + probeCount);
        let probed = 0;
        const second = await seconds(async () => {
          await container.get(AdvanceEnrollments).sweep();
          let working = true;
          const probing = probe(run, n, probeCount, () => working);
          // The sink's count first (no query in the product's process), then the runs' end.
          await tally.until(n);
          await settled("every run to complete", () => enrollmentsOf(run, "completed"), n);
          working = false;
          probed = await probing;
          await tally.until(n + probed);
        });
        await checkWave("second", n + probed, (to) => (Number(readers(run).exec(to)![1]) < n ? `Day two, ${nameOf(to)}` : `Welcome ${nameOf(to)}`));
        latencies.push(...(await probeLatencies(run)));
        // The sign-ups' runs wait at the delay: cancelled, so that their second emails do not land in a later round's wave.
        if (probed > 0) {
          const subscriberIds = Array.from({ length: probed }, (_, i) => `sub_seqbench_r${run}p${i}`);
          await api("POST", `/api/v1/sequences/${sequenceId}/enrollments/cancel`, { subscriberIds, dryRun: false });
        }
        return (2 * n + probed) / (first + second);
      } finally {
        await worker.stop();
      }
    };

    // Warm-up, which also makes the messages the baseline sends: the product's own output.
    await runSequence("w", WARMUP);
    const rendered = await knex("email_sends")
      .leftJoin("email_send_contents", "email_send_contents.email_send_id", "email_sends.id")
      .where({ company_id: company.companyId, recipient_email: email("w", 0) })
      .orderBy("email_sends.created_at")
      .select("subject", "html", "text", "sender_email");
    if (rendered.length !== 2) throw new Error(`bench ${NAME}: the warm-up contact has ${rendered.length} sends, not 2`);
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
      const recipients = Array.from({ length: 2 * n }, (_, i) => `direct-${run}-${i}@example.org`);
      const messageOf = (i: number) => rendered[i % 2] as { subject: string; html: string; text: string; sender_email: string };
      await tally.expect(directs(run), 2 * n);
      const taken = await seconds(() =>
        inParallel(2 * n, IN_FLIGHT, async (i) => {
          const message = messageOf(i);
          await transporter!.sendMail({ from: message.sender_email, to: recipients[i], subject: message.subject, html: message.html, text: message.text });
        }),
      );
      await tally.until(2 * n);
      await checkTally(
        `bench ${NAME}: baseline`,
        2 * n,
        await tally.report(),
        {
          from: SENDER,
          isRecipient: numberedBelow(directs(run), 2 * n),
          subjectOf: (to) => messageOf(Number(directs(run).exec(to)![1])).subject,
          htmlIncludes: HTML_MARK,
        },
        dkim,
      );
      return (2 * n) / taken;
    };
    await sendBare("w", WARMUP);

    process.stderr.write(
      `${NAME}: ${share} contacts (${2 * share} emails) a side a round, ${rounds} rounds, worker concurrency ${WORKER_CONCURRENCY}, ${keys.length} keys\n`,
    );
    const comparison = await alternate(
      NAME,
      rounds,
      "emails/s",
      (round) => sendBare(String(round), share),
      (round) => runSequence(String(round), share),
    );
    return ratioLine(NAME, "emails/s", comparison, GOAL, [
      `events ingested at ${Math.round(median(ingestRates))} events/s before the waves (${IN_FLIGHT} connections, each event enrolling its contact${shedSentAgain > 0 ? `; ${shedSentAgain} shed with 503 and sent again` : ""})`,
      `event to first queued email p99 ${Math.round(percentile(latencies, 99))} ms while the second wave is worked (${latencies.length} sign-ups, one every ${PROBE_INTERVAL_MS} ms; goal < ${LATENCY_GOAL_MS} ms: ${percentile(latencies, 99) < LATENCY_GOAL_MS ? "met" : "missed"})`,
      "LOG_LEVEL=info to a file",
      `worker --concurrency ${WORKER_CONCURRENCY}`,
      `COMPANY_RATE_PER_MINUTE=${COMPANY_RATE_PER_MINUTE}`,
    ]);
  } finally {
    transporter?.close();
    await load.close();
    await close(server);
    await runtime.close();
    await tally.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
