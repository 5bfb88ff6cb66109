import test from "ava";
import { DeliverEmailsJob, deliverEmailsJob } from "../../../core/delivery/queue-email-send.js";

const stored = (payload: Record<string, unknown>) => ({ id: "job_1", type: "email.deliver", companyId: "cmp_1", payload });

test("a delivery job is queued with its batch of sends", (t) => {
  t.like(deliverEmailsJob("cmp_1", ["es_1", "es_2"]), {
    type: "email.deliver",
    companyId: "cmp_1",
    payload: { emailSendIds: ["es_1", "es_2"] },
    maxAttempts: 5,
  });
});

test("a delivery job reads its batch, and a job queued before batching (one emailSendId) as a batch of one", (t) => {
  t.like(DeliverEmailsJob.decode(stored({ emailSendIds: ["es_1", "es_2"] })), { right: { companyId: "cmp_1", payload: { emailSendIds: ["es_1", "es_2"] } } });
  t.like(DeliverEmailsJob.decode(stored({ emailSendId: "es_1" })), { right: { companyId: "cmp_1", payload: { emailSendIds: ["es_1"] } } });
});

test("a delivery job naming no sends is refused with why", (t) => {
  const decoded = DeliverEmailsJob.decode(stored({ emailSendIds: "es_1" }));
  t.is(decoded._tag, "Left");
  if (decoded._tag === "Left") t.is(decoded.left.message, "email.deliver job job_1 has a malformed payload: emailSendIds must be Array<string>");
});
