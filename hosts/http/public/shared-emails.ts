import express, { type Response } from "express";
import { Locale } from "../../../core/emails/commands.js";
import { ShowSharedCampaign } from "../../../core/campaigns/show-shared-campaign.js";
import { ShowSharedEmail } from "../../../core/emails/show-shared-email.js";
import { AppLogger } from "../../tokens.js";
import { publicSurface } from "../public-surface.js";
import { errorPage, linkNotFoundPage } from "./tracking-pages.js";

/**
 * The company's own HTML is shown on the server's origin: the policy lets it show images, styles
 * and links but run nothing (sandboxed, no scripts, no forms). A shared email may be forwarded
 * anywhere, but is nobody's to index or to keep a stale copy of once revoked.
 */
const PAGE_POLICY =
  "default-src 'none'; img-src * data:; style-src 'unsafe-inline' *; font-src * data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
  "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation";

const html = (res: Response, status: number, body: string) =>
  res
    .set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer", "Content-Security-Policy": PAGE_POLICY })
    .status(status)
    .type("html")
    .send(body);

/**
 * `GET /share/emails/{token}`: a template's share link (POST /api/v1/templates/{id}/share-link),
 * the email as HTML for a sample contact; `?locale=es` shows a localized variant. A revoked link
 * or a deleted template gets the not-found page. `GET /share/campaigns/{token}`: a campaign's
 * (POST /api/v1/campaigns/{id}/share-link), the same way.
 */
export const sharedEmailsSurface = publicSurface(
  { showSharedEmail: ShowSharedEmail, showSharedCampaign: ShowSharedCampaign, logger: AppLogger },
  ({ showSharedEmail, showSharedCampaign, logger }) => {
    const router = express.Router();
    router.get("/share/campaigns/:token", async (req, res) => {
      try {
        const shown = await showSharedCampaign.execute(String(req.params.token));
        if (shown._tag === "Left") return void html(res, 404, linkNotFoundPage());
        html(res, 200, shown.right.html);
      } catch (error) {
        logger.error({ err: error }, "could not show a shared campaign");
        html(res, 500, errorPage());
      }
    });
    router.get("/share/emails/:token", async (req, res) => {
      const locale = Locale.decode(req.query.locale);
      try {
        const shown = await showSharedEmail.execute(String(req.params.token), locale._tag === "Right" ? locale.right : undefined);
        if (shown._tag === "Left") return void html(res, 404, linkNotFoundPage());
        html(res, 200, shown.right.html);
      } catch (error) {
        logger.error({ err: error }, "could not show a shared email");
        html(res, 500, errorPage());
      }
    });
    return router;
  },
);
