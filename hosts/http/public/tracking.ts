import express, { type Request, type Response } from "express";
import { Clock } from "../../../core/ports/clock.js";
import type { TrackingRequest } from "../../../core/tracking/engagement-request.js";
import { RecordClick } from "../../../core/tracking/record-click.js";
import { RecordOpen } from "../../../core/tracking/record-open.js";
import { TrackingTokens } from "../../../core/tracking/tracking-tokens.js";
import { ShowUnsubscribePage } from "../../../core/tracking/unsubscribe-page.js";
import { UnsubscribeRecipient } from "../../../core/tracking/unsubscribe-recipient.js";
import { LeaveSequenceFromEmail } from "../../../core/sequences/leave-sequence-from-email.js";
import { AppLogger } from "../../tokens.js";
import { isScannerAddress } from "../../../adapters/net/scanner-networks.js";
import { publicSurface } from "../public-surface.js";
import { errorPage, leftSequencePage, linkNotFoundPage, unsubscribeConfirmPage, unsubscribedPage } from "./tracking-pages.js";

/** A transparent 1x1 GIF (43 bytes). */
export const TRANSPARENT_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

function trackingRequest(req: Request, token: string): TrackingRequest {
  const ip = req.ip ?? req.socket.remoteAddress ?? null;
  return { token, method: req.method, userAgent: req.get("user-agent") ?? null, ip, fromScannerNetwork: ip !== null && isScannerAddress(ip) };
}

/** Tracking and unsubscribe responses are per request and per reader: never cached, never indexed. */
function uncached(res: Response): Response {
  return res.set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex" });
}

const html = (res: Response, status: number, body: string) => uncached(res).status(status).type("html").send(body);

/**
 * The links inside sent emails (decisions.md, Email tracking):
 * - `GET|HEAD /t/o/{token}.gif`: the open pixel, always served; an open is recorded for a valid token;
 * - `GET|HEAD /t/c/{token}`: records a click and redirects (302) to the URL signed into the token;
 *   a token this server did not sign gets a 404 page and no redirect, so there is no open redirect;
 * - `GET /u/{token}`: the unsubscribe page (changes nothing); `POST /u/{token}`: unsubscribes
 *   (the page's button, or a mail client's RFC 8058 `List-Unsubscribe=One-Click`, whose body needs no reading);
 * - `POST /u/{token}/sequence`: stops only the email's sequence, when it is `userCancellable`.
 * Recording never stands between the reader and the pixel or the destination: a failure is logged.
 */
export const trackingSurface = publicSurface(
  {
    recordOpen: RecordOpen,
    recordClick: RecordClick,
    trackingTokens: TrackingTokens,
    showUnsubscribePage: ShowUnsubscribePage,
    unsubscribeRecipient: UnsubscribeRecipient,
    leaveSequenceFromEmail: LeaveSequenceFromEmail,
    clock: Clock,
    logger: AppLogger,
  },
  ({ recordOpen, recordClick, trackingTokens, showUnsubscribePage, unsubscribeRecipient, leaveSequenceFromEmail, clock, logger }) => {
    const router = express.Router();

    router.get("/t/o/:file", async (req, res) => {
      const file = String(req.params.file);
      const token = file.endsWith(".gif") ? file.slice(0, -".gif".length) : file;
      try {
        await recordOpen.execute(trackingRequest(req, token));
      } catch (error) {
        logger.error({ err: error }, "could not record an open");
      }
      uncached(res).status(200).type("image/gif").send(TRANSPARENT_GIF);
    });

    router.get("/t/c/:token", async (req, res) => {
      const token = String(req.params.token);
      let destination: { url: string } | null;
      try {
        destination = await recordClick.execute(trackingRequest(req, token));
      } catch (error) {
        logger.error({ err: error }, "could not record a click");
        destination = trackingTokens.readClick(token, clock.now());
      }
      if (!destination) return void html(res, 404, linkNotFoundPage());
      uncached(res).set("Referrer-Policy", "no-referrer").redirect(302, destination.url);
    });

    router.get("/u/:token", async (req, res) => {
      try {
        const token = String(req.params.token);
        const page = await showUnsubscribePage.execute(token);
        if (page._tag === "Left") return void html(res, 404, linkNotFoundPage());
        if (page.right.unsubscribed) return void html(res, 200, unsubscribedPage(page.right));
        const sequenceName = await leaveSequenceFromEmail.offer(token);
        html(res, 200, unsubscribeConfirmPage(page.right, sequenceName === null ? null : { token, sequenceName }));
      } catch (error) {
        logger.error({ err: error }, "could not show an unsubscribe page");
        html(res, 500, errorPage());
      }
    });

    router.post("/u/:token", async (req, res) => {
      try {
        const done = await unsubscribeRecipient.execute(String(req.params.token));
        if (done._tag === "Left") return void html(res, 404, linkNotFoundPage());
        html(res, 200, unsubscribedPage(done.right));
      } catch (error) {
        logger.error({ err: error }, "could not unsubscribe");
        html(res, 500, errorPage());
      }
    });

    router.post("/u/:token/sequence", async (req, res) => {
      try {
        const left = await leaveSequenceFromEmail.execute(String(req.params.token));
        if (left._tag === "Left") return void html(res, 404, linkNotFoundPage());
        html(res, 200, leftSequencePage(left.right));
      } catch (error) {
        logger.error({ err: error }, "could not stop a sequence");
        html(res, 500, errorPage());
      }
    });

    return router;
  },
);
