import express, { type Request, type Response, type Router } from "express";
import type { Container } from "inversify";
import { SnsMessages } from "../../../adapters/aws-sns/sns-messages.js";
import { hasValidSignature } from "../../../adapters/crypto/webhook-signatures.js";
import { CheckSesTopic } from "../../../core/delivery/check-ses-topic.js";
import { GENERIC_SIGNATURE_HEADER, OpenDeliveryWebhookSecret } from "../../../core/delivery/create-delivery-webhook-secret.js";
import { fromGenericEvent, GenericDeliveryEvent } from "../../../core/delivery/generic-webhook-event.js";
import { RecordDeliveryEvent } from "../../../core/delivery/record-delivery-event.js";
import { fromSesNotification } from "../../../core/delivery/ses-notification.js";
import { Clock } from "../../../core/ports/clock.js";
import { decode } from "../../../core/shared/codecs.js";
import { badRequest, unauthorized, type DomainError } from "../../../core/shared/errors.js";
import { AppLogger } from "../../tokens.js";
import type { Logger } from "../../logger.js";
import { errorBody, statusOf } from "../error-body.js";

const BODY_LIMIT = "256kb";
const INVALID_SIGNATURE = "Invalid signature";

const reply = (res: Response, error: DomainError) => res.status(statusOf(error)).json(errorBody(error));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Delivery events from mail providers, at `/api/webhooks/{provider}/{companyId}`:
 * - `ses`: Amazon SES notifications through an SNS subscription (signature checked with SNS's
 *   certificate; subscription confirmations are accepted for existing companies; the first
 *   topic seen is pinned and other topics are refused);
 * - `generic`: one JSON event per request, signed with the company's webhook secret
 *   (`X-Signature: sha256=<hex HMAC-SHA256 of the raw body>`).
 * Nothing changes unless the signature holds and the company exists.
 */
export function deliveryWebhooks(container: Container): Router {
  const router = express.Router();
  const sns = new SnsMessages();
  const logger = () => container.get<Logger>(AppLogger);

  // SNS posts JSON as text/plain.
  router.post("/api/webhooks/ses/:companyId", express.text({ type: "*/*", limit: BODY_LIMIT }), async (req: Request, res: Response, next) => {
    try {
      const companyId = String(req.params.companyId);
      const body = typeof req.body === "string" ? parseJson(req.body) : undefined;
      if (!body || typeof body !== "object") return reply(res, badRequest("Body must be an SNS message"));
      let message;
      try {
        message = await sns.verify(body as Record<string, unknown>);
      } catch (error) {
        logger().warn({ err: error, companyId }, "SES webhook with an invalid SNS signature");
        return reply(res, unauthorized(INVALID_SIGNATURE));
      }
      const recorder = container.get(RecordDeliveryEvent);
      const exists = await recorder.companyExists(companyId);
      if (exists._tag === "Left") return reply(res, exists.left);
      const topic = await container.get(CheckSesTopic).execute(companyId, String(message.TopicArn));
      if (topic._tag === "Left") {
        logger().warn({ companyId, topicArn: message.TopicArn }, "SES webhook from a topic other than the company's");
        return reply(res, topic.left);
      }

      if (message.Type === "SubscriptionConfirmation") {
        if (!SnsMessages.isAmazonUrl(message.SubscribeURL)) return reply(res, badRequest("SubscribeURL is not an Amazon URL"));
        const confirmed = await sns.confirmSubscription(message);
        return res.json({ success: true, confirmed });
      }
      if (message.Type !== "Notification") return res.json({ success: true, ignored: true });

      const notification = parseJson(message.Message);
      const parsed = fromSesNotification(notification, message.MessageId, container.get<Clock>(Clock).now());
      if (!parsed) return res.json({ success: true, ignored: true });
      const result = await recorder.execute(companyId, parsed.reference, parsed.event);
      if (result._tag === "Left") return reply(res, result.left);
      res.json({ success: true, emailSendId: result.right.emailSendId, stored: result.right.stored });
    } catch (error) {
      next(error);
    }
  });

  router.post("/api/webhooks/generic/:companyId", express.raw({ type: "*/*", limit: BODY_LIMIT }), async (req: Request, res: Response, next) => {
    try {
      const companyId = String(req.params.companyId);
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const recorder = container.get(RecordDeliveryEvent);
      const exists = await recorder.companyExists(companyId);
      if (exists._tag === "Left") return reply(res, exists.left);
      const secret = await container.get(OpenDeliveryWebhookSecret).execute(companyId);
      if (!secret || !hasValidSignature(secret, raw, req.get(GENERIC_SIGNATURE_HEADER))) return reply(res, unauthorized(INVALID_SIGNATURE));

      const body = parseJson(raw.toString("utf8"));
      if (body === undefined) return reply(res, badRequest("Malformed JSON"));
      const decoded = decode(GenericDeliveryEvent, body);
      if (decoded._tag === "Left") return reply(res, decoded.left);
      if (!decoded.right.messageId && !decoded.right.emailSendId) return reply(res, badRequest("Provide messageId or emailSendId"));
      const { reference, event } = fromGenericEvent(decoded.right, container.get<Clock>(Clock).now());
      const result = await recorder.execute(companyId, reference, event);
      if (result._tag === "Left") return reply(res, result.left);
      res.json({ success: true, emailSendId: result.right.emailSendId, stored: result.right.stored });
    } catch (error) {
      next(error);
    }
  });

  return router;
}
