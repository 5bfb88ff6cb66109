import express, { type Request, type Response } from "express";
import { RateLimiter } from "../../../core/ports/rate-limiter.js";
import { decode } from "../../../core/shared/codecs.js";
import type { DomainError } from "../../../core/shared/errors.js";
import { AcceptInvitation } from "../../../core/team/accept-invitation.js";
import { AcceptInvitationCommand } from "../../../core/team/commands.js";
import { AppLogger } from "../../tokens.js";
import { errorBody, statusOf } from "../error-body.js";
import { setRateHeaders, setRetryAfter, windowName } from "../middleware/rate-limit.js";
import { publicSurface } from "../public-surface.js";
import { invitationAcceptedPage, invitationClosedPage, invitationNotFoundPage, invitationPage } from "./invitation-pages.js";
import { errorPage } from "./tracking-pages.js";

/** decisions.md: the acceptance is public (the token is the credential), under both API prefixes. */
const ACCEPT_PATHS = ["/api/v1/team/invitations/accept", "/v1/team/invitations/accept"];
const BODY_LIMIT = "8kb";

/** Per invitee and secret-bearing (the page shows a key): never cached, never indexed, never passed on as a referrer. */
const html = (res: Response, status: number, body: string) =>
  res.set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" }).status(status).type("html").send(body);

/**
 * Accepting team invitations, without a key:
 * - `POST /api/v1/team/invitations/accept` `{token, name?}`: JSON `{success, member, company, apiKey:{id,key,prefix,scopes}}`;
 * - `GET /invitations/{token}` (the emailed inviteUrl): shows the invitation with a button, changes nothing;
 * - `POST /invitations/{token}`: accepts and shows the key once.
 * A token that names no invitation counts as a failed authentication of the client's address
 * (the budget keys are tried against), so tokens cannot be tried at line rate.
 */
export const invitationsSurface = publicSurface({ accept: AcceptInvitation, limiter: RateLimiter, logger: AppLogger }, ({ accept, limiter, logger }) => {
  const router = express.Router();
  const address = (req: Request) => req.ip ?? req.socket.remoteAddress ?? "unknown";

  /** The refusal message when the address is over its budget of unknown tokens, else null (and the failure counted). */
  const refused = async (req: Request, res: Response, error?: DomainError): Promise<string | null> => {
    const known = limiter.refusal("authFailures", address(req));
    const decision = known ?? (error?._tag === "NotFound" ? await limiter.consume("authFailures", address(req)) : undefined);
    if (!decision || decision.allowed) return null;
    setRateHeaders(res, decision);
    const retryAfter = setRetryAfter(res, decision);
    return `Too many invalid invitation links: ${decision.limit} per ${windowName(decision.windowSeconds)} per client address. Retry after ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`;
  };

  router.post(ACCEPT_PATHS, express.json({ limit: BODY_LIMIT }), async (req, res, next) => {
    try {
      const over = await refused(req, res);
      if (over) return void res.status(429).json({ success: false, error: over });
      const input = decode(AcceptInvitationCommand, req.body ?? {});
      if (input._tag === "Left") return void res.status(statusOf(input.left)).json(errorBody(input.left));
      const done = await accept.execute(input.right);
      if (done._tag === "Left") {
        const limited = await refused(req, res, done.left);
        if (limited) return void res.status(429).json({ success: false, error: limited });
        return void res.status(statusOf(done.left)).json(errorBody(done.left));
      }
      res.set("Cache-Control", "no-store").json({ success: true, ...done.right });
    } catch (error) {
      next(error);
    }
  });

  router.get("/invitations/:token", async (req, res) => {
    try {
      if (await refused(req, res)) return void html(res, 429, invitationClosedPage("Too many attempts", "Please try again in a minute."));
      const page = await accept.show(String(req.params.token));
      if (page._tag === "Left") {
        await refused(req, res, page.left);
        return void html(res, 404, invitationNotFoundPage());
      }
      html(res, 200, invitationPage(page.right));
    } catch (error) {
      logger.error({ err: error }, "could not show an invitation page");
      html(res, 500, errorPage());
    }
  });

  router.post("/invitations/:token", express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 5 }), async (req, res) => {
    try {
      if (await refused(req, res)) return void html(res, 429, invitationClosedPage("Too many attempts", "Please try again in a minute."));
      const body = (req.body ?? {}) as { name?: unknown };
      const name = typeof body.name === "string" && body.name.trim() ? body.name : undefined;
      const input = decode(AcceptInvitationCommand, { token: String(req.params.token), ...(name ? { name } : {}) });
      if (input._tag === "Left") return void html(res, 400, invitationClosedPage("Please check the form", input.left.message));
      const done = await accept.execute(input.right);
      if (done._tag === "Left") {
        if (done.left._tag === "NotFound") {
          await refused(req, res, done.left);
          return void html(res, 404, invitationNotFoundPage());
        }
        return void html(res, statusOf(done.left), invitationClosedPage("This invitation cannot be accepted", done.left.message));
      }
      html(res, 200, invitationAcceptedPage(done.right));
    } catch (error) {
      logger.error({ err: error }, "could not accept an invitation");
      html(res, 500, errorPage());
    }
  });

  return router;
});
