import express, { type Request, type Response, type Router } from "express";
import { PROVIDERS } from "../../../core/integrations/model.js";
import { ReceiveProviderWebhook, WEBHOOK_BODY_LIMIT_BYTES } from "../../../core/integrations/receive-provider-webhook.js";
import type { WebhookHeaders } from "../../../core/integrations/ports.js";
import { AppLogger } from "../../tokens.js";
import { errorBody, statusOf } from "../error-body.js";
import { publicSurface } from "../public-surface.js";

const headersOf = (req: Request): WebhookHeaders =>
  Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value]));

/**
 * Provider webhooks at `{base_url}/api/webhooks/{provider}/{companyId}` (spec, Events 4), one path
 * per connectable provider: the raw body (capped; a larger one is 413 before anything is read
 * further) goes to ReceiveProviderWebhook, which checks the provider's signature, stores the
 * delivery once and queues its processing. The answer is immediate; the work is the job's.
 */
export const integrationWebhooks = publicSurface({ receive: ReceiveProviderWebhook, logger: AppLogger }, ({ receive, logger }): Router => {
  const router = express.Router();
  for (const provider of PROVIDERS) {
    router.post(
      `/api/webhooks/${provider}/:companyId`,
      express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES }),
      async (req: Request, res: Response, next) => {
        try {
          const companyId = String(req.params.companyId);
          const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const received = await receive.execute(provider, companyId, headersOf(req), body);
          if (received._tag === "Left") {
            if (received.left._tag === "Unauthorized") logger.warn({ provider, companyId, reason: received.left.message }, "provider webhook refused");
            return res.status(statusOf(received.left)).json(errorBody(received.left));
          }
          res.json({ success: true, received: true, duplicate: received.right.duplicate });
        } catch (error) {
          next(error);
        }
      },
    );
  }
  return router;
});
