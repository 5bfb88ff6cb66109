import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import test from "ava";
import { simpleParser } from "mailparser";
import { SetUpOperatorSender } from "../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../core/shared/actor.js";
import { createCompanyFixture } from "../../fixtures/companies.js";
import { apiFixture } from "../helpers/api-fixture.js";
import { insertContactRows } from "../helpers/contact-rows.js";
import { dialects } from "../helpers/databases.js";
import { smtpSink } from "../helpers/smtp-sink.js";
import { startWorkerProcess, waitFor } from "../helpers/worker-process.js";

const SCRIPT = fileURLToPath(new URL("../helpers/campaign-worker-process.js", import.meta.url));
/**
 * Batches of ten: the first worker records the first batch and dies with the second rendered.
 * Batches of 120, which go in parts of 50: it records the first part and dies with the second
 * rendered, in the middle of the first batch.
 */
const CASES = [
  { recipients: 30, batchSize: 10, stalls: "stalled at batch 1 after position 10" },
  { recipients: 130, batchSize: 120, stalls: "stalled at batch 0 after position 50" },
] as const;

for (const dialect of dialects())
  for (const { recipients: RECIPIENTS, batchSize, stalls } of CASES)
    test(`${dialect.name}: a worker killed mid-send (SIGKILL) and another taking over, batches of ${batchSize}: every recipient gets exactly one message at the SMTP server`, async (t) => {
      const secretKey = randomBytes(32);
      const sink = await smtpSink(t);
      const api = await apiFixture(t, dialect, { secretKey });
      const { knex, container } = api.runtime;
      const company = await createCompanyFixture(container, { name: "Acme" });
      const sender = await container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, "hello@acme.example");
      if (sender._tag === "Left") throw new Error(sender.left.message);
      const emails = Array.from({ length: RECIPIENTS }, (_, n) => `reader${String(n).padStart(3, "0")}@example.com`);
      await insertContactRows(
        knex,
        company.companyId,
        emails.map((email, n) => ({ id: `sub_crash_${String(n).padStart(3, "0")}`, email, firstName: `Reader${n}`, createdAt: api.clock.now() })),
      );
      const created = await api.call("POST", "/api/v1/campaigns", {
        key: company.ownerKey,
        body: { name: "News", subject: "Hello {{ firstName }}", blocks: [{ type: "text", content: "Hi {{ firstName }}" }] },
      });
      t.is(created.status, 200, JSON.stringify(created.body));
      const id: string = created.body.campaign.id;
      const scheduled = await api.call("POST", `/api/v1/campaigns/${id}/schedule`, {
        key: company.ownerKey,
        body: { scheduledAt: api.clock.now().toISOString() },
      });
      t.is(scheduled.status, 200, JSON.stringify(scheduled.body));

      // The first worker records one part, renders the second and dies before recording it.
      const env = {
        SECRET_KEY: secretKey.toString("base64"),
        MAIL_URL: `smtp://127.0.0.1:${sink.port}`,
        CAMPAIGN_BATCH_SIZE: String(batchSize),
        LEASE_MS: "1000",
      };
      const first = await startWorkerProcess(t, SCRIPT, api.database, { ...env, STALL_AT_RECORD: "2" });
      await waitFor("the first worker to stall at its second part", async () => first.output().includes(stalls), 60_000);
      first.child.kill("SIGKILL");
      await once(first.child, "exit");
      t.is((await knex("campaigns").where({ id }).first("status")).status, "sending", "killed while sending");

      // Another worker takes the batch over once its lease ran out, and finishes the send.
      await startWorkerProcess(t, SCRIPT, api.database, env);
      await waitFor("the campaign to be sent", async () => (await knex("campaigns").where({ id }).first("status")).status === "sent", 60_000);

      const messages = await Promise.all(sink.received.map((message) => simpleParser(message.raw)));
      const recipients = messages.map((message) => (Array.isArray(message.to) ? message.to[0] : message.to)!.value[0]!.address!).sort();
      t.deepEqual(recipients, emails, "every recipient exactly once");
      t.true(messages.every((message) => /^Hello Reader\d+$/.test(message.subject ?? "")));
      const view = await api.call("GET", `/api/v1/campaigns/${id}`, { key: company.ownerKey });
      t.like(view.body.campaign, { status: "sent", progress: { recipients: RECIPIENTS, queued: RECIPIENTS, sent: RECIPIENTS, remaining: 0 } });
    });
