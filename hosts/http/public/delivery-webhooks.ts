import express, { type Request, type Response, type Router } from "express";
import { hasValidSignature } from "../../../adapters/crypto/webhook-signatures.js";
import { GENERIC_SIGNATURE_HEADER, OpenDeliveryWebhookSecret } from "../../../core/delivery/create-delivery-webhook-secret.js";
import { fromGenericEvent, GenericDeliveryEvent } from "../../../core/delivery/generic-webhook-event.js";
import { RecordDeliveryEvent } from "../../../core/delivery/record-delivery-event.js";
import { INVALID_SIGNATURE, ReceiveSesNotification } from "../../../core/delivery/receive-ses-notification.js";
import { Clock } from "../../../core/ports/clock.js";
import { decode } from "../../../core/shared/codecs.js";
import { badRequest, unauthorized, type DomainError } from "../../../core/shared/errors.js";
import { AppLogger } from "../../tokens.js";
import { errorBody, statusOf } from "../error-body.js";
import { publicSurface } from "../public-surface.js";

const BODY_LIMIT = "256kb";

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
export const deliveryWebhooks = publicSurface(
  {
    receiveSesNotification: ReceiveSesNotification,
    recordDeliveryEvent: RecordDeliveryEvent,
    openWebhookSecret: OpenDeliveryWebhookSecret,
    clock: Clock,
    logger: AppLogger,
  },
  (uses): Router => {
    const router = express.Router();
    const { logger } = uses;

    // SNS posts JSON as text/plain.
    router.post("/api/webhooks/ses/:companyId", express.text({ type: "*/*", limit: BODY_LIMIT }), async (req: Request, res: Response, next) => {
      try {
        const companyId = String(req.params.companyId);
        const result = await uses.receiveSesNotification.execute(companyId, typeof req.body === "string" ? req.body : "");
        if (result._tag === "Left") {
          const refused = result.left._tag === "Unauthorized" || result.left._tag === "Forbidden";
          if (refused) logger.warn({ companyId, reason: result.left.message }, "SES webhook refused");
          return reply(res, result.left);
        }
        const outcome = result.right;
        switch (outcome.kind) {
          case "subscriptionConfirmed":
            return res.json({ success: true, confirmed: outcome.confirmed });
          case "ignored":
            return res.json({ success: true, ignored: true });
          case "recorded":
            return res.json({ success: true, emailSendId: outcome.emailSendId, stored: outcome.stored });
        }
      } catch (error) {
        next(error);
      }
    });

    router.post("/api/webhooks/generic/:companyId", express.raw({ type: "*/*", limit: BODY_LIMIT }), async (req: Request, res: Response, next) => {
      try {
        const companyId = String(req.params.companyId);
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const recorder = uses.recordDeliveryEvent;
        const exists = await recorder.companyExists(companyId);
        if (exists._tag === "Left") return reply(res, exists.left);
        const secret = await uses.openWebhookSecret.execute(companyId);
        if (!secret || !hasValidSignature(secret, raw, req.get(GENERIC_SIGNATURE_HEADER))) return reply(res, unauthorized(INVALID_SIGNATURE));

        const body = parseJson(raw.toString("utf8"));
        if (body === undefined) return reply(res, badRequest("Malformed JSON"));
        const decoded = decode(GenericDeliveryEvent, body);
        if (decoded._tag === "Left") return reply(res, decoded.left);
        if (!decoded.right.messageId && !decoded.right.emailSendId) return reply(res, badRequest("Provide messageId or emailSendId"));
        const { reference, event } = fromGenericEvent(decoded.right, uses.clock.now());
        const result = await recorder.execute(companyId, reference, event);
        if (result._tag === "Left") return reply(res, result.left);
        res.json({ success: true, emailSendId: result.right.emailSendId, stored: result.right.stored });
      } catch (error) {
        next(error);
      }
    });

    return router;
  },
);
