import { isIP } from "node:net";
import express, { type Request, type Response } from "express";
import { ShowLandingPage } from "../../../core/landing-pages/show-landing-page.js";
import type { HostedPage } from "../../../core/landing-pages/hosted-page.js";
import { AppLogger, BaseUrl } from "../../tokens.js";
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
 *   previewUrl; never indexed, never counted;
 * - on a verified custom domain, `GET /` (a page's domain) or `GET /{slug}` (the company's).
 */
export const landingPagesSurface = publicSurface(
  { showLandingPage: ShowLandingPage, logger: AppLogger, baseUrl: BaseUrl },
  ({ showLandingPage, logger, baseUrl }) => {
    const router = express.Router();
    const serviceHost = new URL(baseUrl).hostname;
    const visitOf = (req: Request) => ({ method: req.method, userAgent: req.get("user-agent") ?? null });

    // A request to another host may be for a custom domain: the service's own host and addresses never are, so they cost nothing.
    const customDomain = (slugOf: (req: Request) => string | null) => async (req: Request, res: Response, next: () => void) => {
      const host = req.hostname;
      if (!host || host === serviceHost || host.startsWith("[") || isIP(host) !== 0) return next();
      let hosted: HostedPage | null | undefined;
      try {
        hosted = await showLandingPage.onDomain(host, slugOf(req), visitOf(req));
      } catch (error) {
        logger.error({ err: error, host }, "could not show a landing page on a custom domain");
        return void html(res, 500, errorPage());
      }
      if (hosted === undefined) return next();
      if (hosted === null) return void html(res, 404, notFoundPage());
      html(res, 200, landingPageHtml(hosted, { preview: false }));
    };
    router.get(
      "/",
      customDomain(() => null),
    );
    router.get(
      "/:slug",
      customDomain((req) => String(req.params.slug)),
    );

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
        const hosted = await showLandingPage.published(String(req.params.companyId), String(req.params.slug), visitOf(req));
        if (!hosted) return void html(res, 404, notFoundPage());
        html(res, 200, landingPageHtml(hosted, { preview: false }));
      } catch (error) {
        logger.error({ err: error }, "could not show a landing page");
        html(res, 500, errorPage());
      }
    });

    return router;
  },
);
