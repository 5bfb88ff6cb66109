import express, { type Request, type Response } from "express";
import type { RateBudget } from "../../../core/access/rate-budgets.js";
import { RateLimiter } from "../../../core/ports/rate-limiter.js";
import { decode } from "../../../core/shared/codecs.js";
import { badRequest, invalid, type DomainError } from "../../../core/shared/errors.js";
import { inputBoundsViolation } from "../../../core/shared/input-bounds.js";
import { WEB_TRACKING_BODY_LIMIT } from "../../../core/web-tracking/abuse-limits.js";
import { AdmitWebPage, ORIGIN_NOT_ALLOWED } from "../../../core/web-tracking/admit-web-page.js";
import { requestOrigin } from "../../../core/web-tracking/allowed-origins.js";
import { WebEventBatch } from "../../../core/web-tracking/commands.js";
import { TRACKING_SCRIPT_PATH } from "../../../core/web-tracking/model.js";
import { RecordWebEvents } from "../../../core/web-tracking/record-web-events.js";
import { errorBody, statusOf } from "../error-body.js";
import { refuse } from "../middleware/rate-limit.js";
import { publicSurface } from "../public-surface.js";
import { servedScript } from "./tracking-script.js";

/** The spec's `endpoint` of a web tracking key, with the company in the path. */
const CUSTOMER_EVENTS = "/api/webhooks/commerce/api/:companyId/customer-events";

const reply = (res: Response, error: DomainError) => res.status(statusOf(error)).json(errorBody(error));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const queryKey = (req: Request): string | undefined => (typeof req.query.publicKey === "string" ? req.query.publicKey : undefined);

const bodyKey = (body: unknown): string | undefined => {
  const key = typeof body === "object" && body !== null ? (body as { publicKey?: unknown }).publicKey : undefined;
  return typeof key === "string" ? key : undefined;
};

/** Lets the admitted page read the answer; a request from no page (a server) needs no header. */
function allowPage(res: Response, origin: string | null): void {
  res.vary("Origin");
  if (origin !== null) res.setHeader("Access-Control-Allow-Origin", origin);
}

/**
 * The web tracking surface (decisions.md, Public surfaces):
 * - `GET /tracking/v1.js`: the tracking script, cacheable, gzipped when the browser takes it;
 * - `POST {endpoint}`: a batch of the script's events. In order: the client address's budget, the
 *   key (query `publicKey`, else the body's) and the page's origin (AdmitWebPage; a refused page gets
 *   no CORS headers, so the browser hides the answer from it), the key's budget, the body (JSON sent
 *   as text/plain, so a page's request needs no preflight; capped), then RecordWebEvents;
 * - `OPTIONS {endpoint}`: the CORS preflight, allowed only for an origin the key (or, when none is
 *   named, any active key of the company) admits.
 */
export const webTrackingSurface = publicSurface(
  { admitWebPage: AdmitWebPage, recordWebEvents: RecordWebEvents, limiter: RateLimiter },
  ({ admitWebPage, recordWebEvents, limiter }) => {
    const router = express.Router();
    const script = servedScript();

    /** Spends one unit of the budget for the subject; false (and the 429 sent) when it is spent out. */
    const spend = async (res: Response, budget: RateBudget, subject: string, per: string): Promise<boolean> => {
      const decision = limiter.refusal(budget, subject) ?? (await limiter.consume(budget, subject));
      if (decision.allowed) return true;
      refuse(res, decision, per);
      return false;
    };
    const address = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? "unknown";

    router.get(TRACKING_SCRIPT_PATH, (req, res) => {
      res.set({
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "public, max-age=3600, stale-while-revalidate=86400",
        ETag: script.etag,
        "Access-Control-Allow-Origin": "*",
        "X-Content-Type-Options": "nosniff",
        Vary: "Accept-Encoding",
      });
      if (req.get("if-none-match") === script.etag) return void res.status(304).end();
      if (req.acceptsEncodings("gzip") === "gzip") return void res.set("Content-Encoding", "gzip").send(script.gzipped);
      res.send(script.text);
    });

    router.options(CUSTOMER_EVENTS, async (req, res, next) => {
      try {
        if (!(await spend(res, "webTrackingAddress", address(req), "client address"))) return;
        const companyId = String(req.params.companyId);
        const origin = requestOrigin(req.get("origin"));
        const publicKey = queryKey(req);
        const allowed =
          origin !== null &&
          (publicKey ? (await admitWebPage.execute(companyId, publicKey, origin))._tag === "Right" : await admitWebPage.anyKeyAdmits(companyId, origin));
        if (!allowed) return reply(res, ORIGIN_NOT_ALLOWED);
        allowPage(res, origin);
        res.set({ "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": "Content-Type", "Access-Control-Max-Age": "600" });
        res.status(204).end();
      } catch (error) {
        next(error);
      }
    });

    router.post(
      CUSTOMER_EVENTS,
      async (req, res, next) => ((await spend(res, "webTrackingAddress", address(req), "client address")) ? next() : undefined),
      express.text({ type: () => true, limit: WEB_TRACKING_BODY_LIMIT }),
      async (req, res, next) => {
        try {
          const companyId = String(req.params.companyId);
          const origin = requestOrigin(req.get("origin"));
          const body = parseJson(typeof req.body === "string" ? req.body : "");
          const admitted = await admitWebPage.execute(companyId, queryKey(req) ?? bodyKey(body), origin);
          if (admitted._tag === "Left") return reply(res, admitted.left);
          const key = admitted.right;
          allowPage(res, origin);
          if (!(await spend(res, "webTrackingKey", key.id, "web tracking key"))) return;
          if (body === undefined) return reply(res, badRequest("Malformed JSON in request body"));
          const violation = inputBoundsViolation(body);
          if (violation) return reply(res, invalid(`Invalid request: ${violation.path} ${violation.message}`, [violation]));
          const batch = decode(WebEventBatch, body);
          if (batch._tag === "Left") return reply(res, batch.left);
          const recorded = await recordWebEvents.execute(key, batch.right);
          if (recorded._tag === "Left") return reply(res, recorded.left);
          res.json({ success: true, accepted: recorded.right.accepted, duplicates: recorded.right.duplicates });
        } catch (error) {
          next(error);
        }
      },
    );

    return router;
  },
);
