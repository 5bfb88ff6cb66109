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

const SCRIPT = fileURLToPath(new URL("../helpers/sequence-worker-process.js", import.meta.url));
const CONTACTS = 3;

for (const dialect of dialects()) {
  test(`${dialect.name}: a worker killed (SIGKILL) between sending a sequence email and recording the step: the contact gets it once, and the enrollment goes on`, async (t) => {
    const secretKey = randomBytes(32);
    const sink = await smtpSink(t);
    const api = await apiFixture(t, dialect, { secretKey });
    const { knex, container } = api.runtime;
    const company = await createCompanyFixture(container, { name: "Acme" });
    const sender = await container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, "hello@acme.example");
    if (sender._tag === "Left") throw new Error(sender.left.message);
    const emails = Array.from({ length: CONTACTS }, (_, n) => `reader${n}@example.com`);
    const ids = emails.map((_, n) => `sub_seqcrash_${n}`);
    await insertContactRows(
      knex,
      company.companyId,
      emails.map((email, n) => ({ id: ids[n]!, email, firstName: `Reader${n}`, createdAt: api.clock.now() })),
    );
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: company.ownerKey, ...(body ? { body } : {}) });
    const created = await call("POST", "/api/v1/sequences", {
      name: "Onboarding",
      trigger: "event_received",
      eventName: "signed_up",
      steps: [
        { subject: "Welcome {{firstName}}", html: "<p>Hello {{firstName}}</p>" },
        { subject: "Tips for {{firstName}}", html: "<p>Tips</p>" },
      ],
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.sequence.id;
    t.is((await call("POST", `/api/v1/sequences/${id}/enable`)).status, 200);

    // The first worker queues the contacts' welcome emails, delivers them in its other slot, and
    // stalls before recording one contact's step; the others go on to the end of the sequence.
    const env = { SECRET_KEY: secretKey.toString("base64"), MAIL_URL: `smtp://127.0.0.1:${sink.port}`, LEASE_MS: "1000" };
    // Enrolled before the worker starts, so that its engine takes the three runs in one batch.
    const enrolled = await call("POST", `/api/v1/sequences/${id}/enroll`, { subscriberIds: ids });
    t.is(enrolled.body.enrolled, CONTACTS, JSON.stringify(enrolled.body));
    const first = await startWorkerProcess(t, SCRIPT, api.database, { ...env, STALL_AFTER_EMAIL: "1" });
    await waitFor("the first worker to stall before recording an email step", async () => first.output().includes("stalled before recording"), 60_000);
    const stalled = /stalled before recording (\S+) of (\S+)/.exec(first.output())!;
    const [sendId, enrollmentId] = [stalled[1]!, stalled[2]!];
    // It dies once every email it queued is delivered and recorded: the kill lands between the
    // stalled contact's email and its step, not inside a delivery (a message the sink accepted
    // but the worker did not record is sent again: that window is the delivery's, not the engine's).
    const others = CONTACTS - 1;
    await waitFor(
      "the stalled contact's welcome email and both emails of the others to be delivered and recorded",
      async () => {
        const sends: Array<{ id: string; status: string }> = await knex("email_sends").where({ automation_id: id }).select("id", "status");
        const done = await knex("sequence_enrollments").where({ sequence_id: id, status: "completed" }).count({ n: "*" }).first();
        return Number(done?.n) === others && sends.length === 1 + others * 2 && sends.every((send) => send.status === "sent");
      },
      60_000,
    );
    t.is(sink.received.length, 1 + others * 2, "each email the first worker queued went out once");
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    const before = await knex("sequence_enrollments").where({ id: enrollmentId }).first("step_count", "status");
    t.like(before, { step_count: 0, status: "active" }, "the step was not recorded");

    // Another worker takes the engine's job over once its lease ran out and finishes the stalled run.
    await startWorkerProcess(t, SCRIPT, api.database, env);
    await waitFor("every enrollment to complete and both emails to reach each contact", async () => {
      const running = await knex("sequence_enrollments").where({ sequence_id: id }).whereNot({ status: "completed" }).count({ n: "*" }).first();
      return Number(running?.n) === 0 && sink.received.length >= CONTACTS * 2;
    });

    const messages = await Promise.all(sink.received.map((message) => simpleParser(message.raw)));
    const got = messages.map((message) => `${(Array.isArray(message.to) ? message.to[0] : message.to)!.value[0]!.address} ${message.subject}`).sort();
    const expected = emails.flatMap((email, n) => [`${email} Tips for Reader${n}`, `${email} Welcome Reader${n}`]).sort();
    t.deepEqual(got, expected, "each contact got each email exactly once");

    const listed = await call("GET", `/api/v1/sequences/${id}/enrollments?status=completed`);
    t.is(listed.status, 200);
    t.is(listed.body.enrollments.length, CONTACTS);
    const steps = await knex("sequence_enrollment_steps").where({ enrollment_id: enrollmentId }).orderBy("step_number");
    t.deepEqual(
      steps.map((step: { outcome: string; email_send_id: string | null }) => [step.outcome, step.email_send_id]),
      [
        ["email_queued", sendId],
        ["email_queued", steps[1]?.email_send_id ?? "(missing)"],
      ],
      "the interrupted step recorded once, with the send it had queued; the next one after it",
    );
    t.not(steps[1]?.email_send_id, sendId);
    const sends = await knex("email_sends").where({ automation_id: id }).count({ n: "*" }).first();
    t.is(Number(sends?.n), CONTACTS * 2, "one send row per contact and email step");
  });
}
