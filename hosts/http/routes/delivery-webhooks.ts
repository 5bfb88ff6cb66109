import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateDeliveryWebhookSecret, deliveryWebhookUrl, type DeliveryWebhookSecret } from "../../../core/delivery/create-delivery-webhook-secret.js";
import { UnpinSesTopic } from "../../../core/delivery/unpin-ses-topic.js";
import { NullableString, Timestamp, view } from "../../../core/shared/view-fields.js";
import { BaseUrl } from "../../tokens.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

/** Where mail providers report deliveries, bounces and complaints. */
export const deliveryWebhookRoutes = routeModule(
  {
    createDeliveryWebhookSecret: CreateDeliveryWebhookSecret,
    unpinSesTopic: UnpinSesTopic,
    baseUrl: BaseUrl,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/delivery-webhooks/secret",
      tag: "Delivery webhooks",
      scopes: ["integrations:manage"],
      summary:
        "Issue the signing secret of the company's generic delivery webhook (replacing any earlier one); it is shown only in this response. The relay posts {type: delivered|bounced|complained, messageId or emailSendId, bounceType?, bounceSubType?, occurredAt?, id?} to webhookUrl with X-Signature: sha256=<hex HMAC-SHA256 of the raw body>. Amazon SES reports through an SNS subscription to sesWebhookUrl (no secret: SNS signs its messages).",
      response: view({
        secret: t.string,
        webhookUrl: t.string,
        sesWebhookUrl: t.string,
        signatureHeader: t.string,
        createdAt: Timestamp,
      }),
      successStatus: 201,
      handle: async ({ actor }) =>
        map((issued: DeliveryWebhookSecret) => ({
          ...issued,
          sesWebhookUrl: deliveryWebhookUrl(uses.baseUrl, "ses", actor.companyId),
        }))(await uses.createDeliveryWebhookSecret.execute(actor)),
    }),
    defineRoute({
      method: "delete",
      path: "/delivery-webhooks/ses-topic",
      tag: "Delivery webhooks",
      scopes: ["integrations:manage"],
      summary:
        "Forget the SNS topic the company's SES events are pinned to (the first topic whose subscription is confirmed at sesWebhookUrl is pinned, and other topics' messages are refused with 403); the next topic to confirm is pinned instead.",
      response: view({ unpinned: NullableString }),
      handle: async ({ actor }) => uses.unpinSesTopic.execute(actor),
    }),
  ],
);
