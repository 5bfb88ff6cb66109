import express, { type Response } from "express";
import { ConfirmSubscription } from "../../../core/opt-in/confirm-subscription.js";
import { AppLogger } from "../../tokens.js";
import { publicSurface } from "../public-surface.js";
import { confirmationLinkNotFoundPage, confirmSubscriptionPage, subscriptionConfirmedPage } from "./opt-in-pages.js";
import { errorPage } from "./tracking-pages.js";

/** Per visitor and secret-bearing: never cached, never indexed, never passed on as a referrer. */
const html = (res: Response, status: number, body: string) =>
  res.set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" }).status(status).type("html").send(body);

/**
 * Double opt-in links from confirmation emails:
 * - `GET /c/{token}`: shows who would be confirmed, with a button; changes nothing (mail scanners fetch links);
 * - `POST /c/{token}`: confirms the contact (again: nothing more happens) and says so.
 * A token not signed here, expired, or naming a contact that is gone gets a 404 page.
 */
export const optInSurface = publicSurface({ confirmSubscription: ConfirmSubscription, logger: AppLogger }, ({ confirmSubscription, logger }) => {
  const router = express.Router();

  router.get("/c/:token", async (req, res) => {
    try {
      const page = await confirmSubscription.show(String(req.params.token));
      if (page._tag === "Left") return void html(res, 404, confirmationLinkNotFoundPage());
      html(res, 200, page.right.confirmed ? subscriptionConfirmedPage(page.right) : confirmSubscriptionPage(page.right));
    } catch (error) {
      logger.error({ err: error }, "could not show a confirmation page");
      html(res, 500, errorPage());
    }
  });

  router.post("/c/:token", async (req, res) => {
    try {
      const done = await confirmSubscription.confirm(String(req.params.token));
      if (done._tag === "Left") return void html(res, 404, confirmationLinkNotFoundPage());
      html(res, 200, subscriptionConfirmedPage(done.right));
    } catch (error) {
      logger.error({ err: error }, "could not confirm a subscription");
      html(res, 500, errorPage());
    }
  });

  return router;
});
