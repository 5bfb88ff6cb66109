import * as t from "io-ts";
import { view } from "../../../core/shared/view-fields.js";
import {
  CreateWebhookCommand,
  DEFAULT_GRACE_PERIOD_HOURS,
  ListWebhookDeliveriesQuery,
  MAX_GRACE_PERIOD_HOURS,
  RotateWebhookSecretCommand,
  UpdateWebhookCommand,
  WebhookDeliveryPath,
  WebhookPath,
} from "../../../core/webhooks/commands.js";
import { CreateWebhook } from "../../../core/webhooks/create-webhook.js";
import { DeleteWebhook } from "../../../core/webhooks/delete-webhook.js";
import { GetWebhook } from "../../../core/webhooks/get-webhook.js";
import { ListWebhookDeliveries } from "../../../core/webhooks/list-webhook-deliveries.js";
import { ListWebhooks } from "../../../core/webhooks/list-webhooks.js";
import { DEFAULT_WEBHOOK_EVENTS } from "../../../core/webhooks/model.js";
import { ReplayWebhookDelivery } from "../../../core/webhooks/replay-webhook-delivery.js";
import { RotateWebhookSecret } from "../../../core/webhooks/rotate-webhook-secret.js";
import { TestWebhook } from "../../../core/webhooks/test-webhook.js";
import { UpdateWebhook } from "../../../core/webhooks/update-webhook.js";
import { WebhookDeliveryView, WebhookView } from "../../../core/webhooks/view.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Webhooks";
const SIGNING =
  "Each delivery is a POST of the event as JSON, signed: X-Sequenzy-Timestamp (Unix seconds) and X-Sequenzy-Signature, one v1=<hex HMAC-SHA256 of 'v1:{timestamp}:{raw body}'> per active secret, comma-separated. Answer 2xx within 4 s; anything else is retried with exponential back-off for up to 7 days.";

/** Outbound webhooks (compat-reference §21). */
export const webhooksRoutes = routeModule(
  {
    list: ListWebhooks,
    get: GetWebhook,
    create: CreateWebhook,
    update: UpdateWebhook,
    remove: DeleteWebhook,
    test: TestWebhook,
    rotate: RotateWebhookSecret,
    deliveries: ListWebhookDeliveries,
    replay: ReplayWebhookDelivery,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/webhooks",
      tag: TAG,
      scopes: ["webhooks:read"],
      summary: "List the company's outbound webhooks, newest first (signing secrets by prefix only)",
      response: view({ webhooks: t.readonlyArray(WebhookView) }),
      handle: async ({ actor }) => under("webhooks")(await uses.list.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/webhooks",
      tag: TAG,
      scopes: ["webhooks:write"],
      summary: `Create a webhook: name, url (https, public host), events (default: ${DEFAULT_WEBHOOK_EVENTS.join(", ")}). The answer alone carries signingSecret (whsec_...): store it, it is never shown again. ${SIGNING}`,
      body: CreateWebhookCommand,
      response: view({ webhook: WebhookView }),
      errors: [400, 403, 422],
      handle: async ({ input, actor }) => under("webhook")(await uses.create.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/webhooks/:webhookId",
      tag: TAG,
      scopes: ["webhooks:read"],
      summary: "One webhook; 404 'Webhook not found'",
      params: WebhookPath,
      response: view({ webhook: WebhookView }),
      errors: [404],
      handle: async ({ input, actor }) => under("webhook")(await uses.get.execute(actor, input.params.webhookId)),
    }),
    defineRoute({
      method: "patch",
      path: "/webhooks/:webhookId",
      tag: TAG,
      scopes: ["webhooks:write"],
      summary:
        "Change at least one of name, url, events (replaces the list), status (enabled or disabled: a disabled webhook gets no new events); enabling it or changing its url closes its circuit",
      params: WebhookPath,
      body: UpdateWebhookCommand,
      response: view({ webhook: WebhookView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("webhook")(await uses.update.execute(actor, input.params.webhookId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/webhooks/:webhookId",
      tag: TAG,
      scopes: ["webhooks:write"],
      summary: "Delete a webhook and its delivery history; deliveries still queued are dropped",
      params: WebhookPath,
      response: view({ webhookId: t.string }),
      errors: [404],
      handle: async ({ input, actor }) => uses.remove.execute(actor, input.params.webhookId),
    }),
    defineRoute({
      method: "post",
      path: "/webhooks/:webhookId/test",
      tag: TAG,
      scopes: ["webhooks:write"],
      summary:
        "Send a sample event (data.test: true) now, once, signed like any other, and answer with the attempt (status, responseCode, error); a success closes an open circuit",
      params: WebhookPath,
      response: view({ webhook: WebhookView, delivery: WebhookDeliveryView }),
      errors: [404],
      handle: async ({ input, actor }) => uses.test.execute(actor, input.params.webhookId),
    }),
    defineRoute({
      method: "post",
      path: "/webhooks/:webhookId/signing-secrets",
      tag: TAG,
      scopes: ["webhooks:write"],
      summary: `Rotate the signing secret: the answer alone carries the new signingSecret; the secrets current until now keep signing (one more v1= entry) for gracePeriodHours (default ${DEFAULT_GRACE_PERIOD_HOURS}, 0 to ${MAX_GRACE_PERIOD_HOURS})`,
      params: WebhookPath,
      body: RotateWebhookSecretCommand,
      response: view({ webhook: WebhookView }),
      errors: [404, 422],
      handle: async ({ input, actor }) => under("webhook")(await uses.rotate.execute(actor, input.params.webhookId, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/webhooks/:webhookId/deliveries",
      tag: TAG,
      scopes: ["webhooks:read"],
      summary:
        "The webhook's newest deliveries (limit 1-100, default 50): status (pending, succeeded, failed), attempts, the last responseCode and error, the next attempt",
      params: WebhookPath,
      query: ListWebhookDeliveriesQuery,
      response: view({ deliveries: t.readonlyArray(WebhookDeliveryView) }),
      errors: [404, 422],
      handle: async ({ input, actor }) => under("deliveries")(await uses.deliveries.execute(actor, input.params.webhookId, input.query)),
    }),
    defineRoute({
      method: "post",
      path: "/webhooks/:webhookId/deliveries/:deliveryId/replay",
      tag: TAG,
      scopes: ["webhooks:write"],
      summary: "Queue the delivery's event again (same event ID and body) as a new delivery with the usual retries; 400 while the webhook is disabled",
      params: WebhookDeliveryPath,
      response: view({
        delivery: WebhookDeliveryView,
        job: view({ id: t.string, status: t.string, runAt: t.string }),
      }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.replay.execute(actor, input.params.webhookId, input.params.deliveryId),
    }),
  ],
);
