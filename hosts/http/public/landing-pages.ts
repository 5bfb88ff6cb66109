import express, { type Response } from "express";
import { ShowLandingPage } from "../../../core/landing-pages/show-landing-page.js";
import { AppLogger } from "../../tokens.js";
import { publicSurface } from "../public-surface.js";
import { landingPageHtml } from "./landing-page-html.js";
import { formProblemPage } from "./form-pages.js";
import { errorPage } from "./tracking-pages.js";

/** No script runs on a hosted page, and nothing but its own styles and images loads. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; base-uri 'none'";

/** Never cached: an unpublished page must be gone at once, and each visit is a view. */
const html = (res: Response, status: number, body: string, extra: Record<string, string> = {}) =>
  res
    .set({ "Cache-Control": "no-store", "Content-Security-Policy": CONTENT_SECURITY_POLICY, ...extra })
    .status(status)
    .type("html")
    .send(body);

const notFoundPage = () => formProblemPage("Page not found", "This page does not exist or is no longer published.");

/**
 * Hosted landing pages (decisions.md, Public surfaces):
 * - `GET /lp/{companyId}/{slug}`: a published page (a person's visit is a view); 404 otherwise;
 * - `GET /lp/preview/{landingPageId}?token=`: any page, draft too, through its signed, expiring
 *   previewUrl; never indexed, never counted.
 */
export const landingPagesSurface = publicSurface({ showLandingPage: ShowLandingPage, logger: AppLogger }, ({ showLandingPage, logger }) => {
  const router = express.Router();

  router.get("/lp/preview/:landingPageId", async (req, res) => {
    try {
      const token = typeof req.query.token === "string" ? req.query.token : "";
      const hosted = await showLandingPage.preview(String(req.params.landingPageId), token);
      if (!hosted) return void html(res, 404, notFoundPage());
      html(res, 200, landingPageHtml(hosted, { preview: true }), { "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" });
    } catch (error) {
      logger.error({ err: error }, "could not show a landing page preview");
      html(res, 500, errorPage());
    }
  });

  router.get("/lp/:companyId/:slug", async (req, res) => {
    try {
      const hosted = await showLandingPage.published(String(req.params.companyId), String(req.params.slug), {
        method: req.method,
        userAgent: req.get("user-agent") ?? null,
      });
      if (!hosted) return void html(res, 404, notFoundPage());
      html(res, 200, landingPageHtml(hosted, { preview: false }));
    } catch (error) {
      logger.error({ err: error }, "could not show a landing page");
      html(res, 500, errorPage());
    }
  });

  return router;
});
