import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateDeliveryWebhookSecret, deliveryWebhookUrl, type DeliveryWebhookSecret } from "../../../core/delivery/create-delivery-webhook-secret.js";
import { UnpinSesTopic } from "../../../core/delivery/unpin-ses-topic.js";
import { BaseUrl } from "../../tokens.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Timestamp } from "../../../core/shared/view-fields.js";

/** Where mail providers report deliveries, bounces and complaints. */
export const deliveryWebhookRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/delivery-webhooks/secret",
    tag: "Delivery webhooks",
    scopes: ["integrations:manage"],
    summary:
      "Issue the signing secret of the company's generic delivery webhook (replacing any earlier one); it is shown only in this response. The relay posts {type: delivered|bounced|complained, messageId or emailSendId, bounceType?, bounceSubType?, occurredAt?, id?} to webhookUrl with X-Signature: sha256=<hex HMAC-SHA256 of the raw body>. Amazon SES reports through an SNS subscription to sesWebhookUrl (no secret: SNS signs its messages).",
    response: t.type({ secret: t.string, webhookUrl: t.string, sesWebhookUrl: t.string, signatureHeader: t.string, createdAt: Timestamp }),
    successStatus: 201,
    handle: async ({ actor, container }) =>
      map((issued: DeliveryWebhookSecret) => ({ ...issued, sesWebhookUrl: deliveryWebhookUrl(container.get<string>(BaseUrl), "ses", actor.companyId) }))(
        await container.get(CreateDeliveryWebhookSecret).execute(actor),
      ),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/delivery-webhooks/ses-topic",
    tag: "Delivery webhooks",
    scopes: ["integrations:manage"],
    summary:
      "Forget the SNS topic the company's SES events are pinned to (the first topic whose subscription is confirmed at sesWebhookUrl is pinned, and other topics' messages are refused with 403); the next topic to confirm is pinned instead.",
    response: t.type({ unpinned: t.union([t.string, t.null]) }),
    handle: async ({ actor, container }) => container.get(UnpinSesTopic).execute(actor),
  }),
];
