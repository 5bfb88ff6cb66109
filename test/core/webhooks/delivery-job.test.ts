import test from "ava";
import { WebhookDeliveryJob, webhookDeliveryJob } from "../../../core/webhooks/delivery-job.js";

const stored = (payload: Record<string, unknown>) => ({ id: "job_1", type: "webhook.deliver", companyId: "cmp_1", payload });

test("a webhook delivery job is queued with its group of deliveries and the attempt it makes", (t) => {
  const at = new Date("2026-11-29T10:00:00.000Z");
  t.like(webhookDeliveryJob("cmp_1", ["whd_1", "whd_2"], 3, at), {
    type: "webhook.deliver",
    companyId: "cmp_1",
    payload: { deliveryIds: ["whd_1", "whd_2"], attempt: 3 },
    runAt: at,
    maxAttempts: 5,
  });
});

test("a webhook delivery job reads its group, and a job queued before grouping (one deliveryId) as a group of one", (t) => {
  t.like(WebhookDeliveryJob.decode(stored({ deliveryIds: ["whd_1", "whd_2"], attempt: 1 })), {
    right: { companyId: "cmp_1", payload: { deliveryIds: ["whd_1", "whd_2"], attempt: 1 } },
  });
  t.like(WebhookDeliveryJob.decode(stored({ deliveryId: "whd_1", attempt: 4 })), {
    right: { companyId: "cmp_1", payload: { deliveryIds: ["whd_1"], attempt: 4 } },
  });
});

test("a webhook delivery job without its attempt is refused with why", (t) => {
  const decoded = WebhookDeliveryJob.decode(stored({ deliveryIds: ["whd_1"] }));
  t.is(decoded._tag, "Left");
  if (decoded._tag === "Left") t.is(decoded.left.message, "webhook.deliver job job_1 has a malformed payload: attempt is required");
});
