import express, { type NextFunction, type Request, type Response } from "express";
import { FormSubmission } from "../../../core/forms/commands.js";
import { FormRepository } from "../../../core/forms/ports.js";
import { SubmitForm } from "../../../core/forms/submit-form.js";
import { RecordLandingConversion } from "../../../core/landing-pages/record-landing-conversion.js";
import { formActionUrl } from "../../../core/forms/urls.js";
import type { PublicBudget } from "../../../core/access/rate-budgets.js";
import { RateLimiter, type RateDecision } from "../../../core/ports/rate-limiter.js";
import { decode } from "../../../core/shared/codecs.js";
import { invalid, type DomainError } from "../../../core/shared/errors.js";
import { inputBoundsViolation } from "../../../core/shared/input-bounds.js";
import { BaseUrl } from "../../tokens.js";
import { errorBody, statusOf } from "../error-body.js";
import { setRetryAfter, windowName } from "../middleware/rate-limit.js";
import { publicSurface } from "../public-surface.js";
import { formEmbedScript } from "./form-embed-script.js";
import { formProblemPage, formThanksPage } from "./form-pages.js";

/** The actionUrl under both API prefixes (decisions.md: `{base_url}/api/v1/forms/<form_id>`). */
const FORM_PATHS = ["/api/v1/forms/:formId", "/v1/forms/:formId"];
/** A signup is a few short fields: anything bigger is not one. */
const BODY_LIMIT = "16kb";

/** Any site may embed a form: its ID is the capability, and no cookie or credential is involved. */
function allowAnyOrigin(_req: Request, res: Response, next: NextFunction): void {
  res.set({
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, Accept",
    "Access-Control-Max-Age": "86400",
  });
  next();
}

/** The embed script and API callers ask for JSON; a plain HTML form post gets a page. */
const wantsJson = (req: Request): boolean => Boolean(req.is("application/json")) || req.accepts(["html", "json"]) === "json";

const refusalMessage = (decision: RateDecision, retryAfter: number): string =>
  `Too many signups: at most ${decision.limit} per ${windowName(decision.windowSeconds)}. Retry after ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`;

/**
 * Public signup forms (spec, Forms; compat-reference §18), reached without a key:
 * - `POST {actionUrl}`: JSON or form-encoded `email` (required), `firstName`, `lastName` and the
 *   `website` honeypot; answers JSON `{success, message, redirectUrl?}`, or for an HTML post the
 *   thank-you page or a 303 to the form's redirect. Limited per form and per client address.
 * - `GET {actionUrl}/embed.js`: the script that renders the form into a page.
 */
export const formsSurface = publicSurface(
  { submitForm: SubmitForm, forms: FormRepository, recordConversion: RecordLandingConversion, limiter: RateLimiter, baseUrl: BaseUrl },
  ({ submitForm, forms, recordConversion, limiter, baseUrl }) => {
    const router = express.Router();
    const parseBody = [express.json({ limit: BODY_LIMIT }), express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 20 })];

    const answerError = (req: Request, res: Response, error: DomainError) => {
      if (wantsJson(req)) return void res.status(statusOf(error)).json(errorBody(error));
      const heading = error._tag === "NotFound" ? "Form not found" : "Please check the form";
      res.status(statusOf(error)).type("html").set("Cache-Control", "no-store").send(formProblemPage(heading, error.message));
    };

    /** Spends one signup of the address and of the form; the refusal of either, or null. */
    const admit = async (req: Request, formId: string): Promise<RateDecision | null> => {
      const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
      const spends: Array<[PublicBudget, string]> = [
        ["formSubmitters", address],
        ["formSubmissions", formId],
      ];
      for (const [budget, subject] of spends) {
        const known = limiter.refusal(budget, subject);
        if (known) return known;
      }
      const spent: Array<[PublicBudget, string]> = [];
      for (const [budget, subject] of spends) {
        const decision = await limiter.consume(budget, subject);
        if (!decision.allowed) {
          // What was spent before the refusal is given back: a refused signup costs nothing.
          for (const [b, s] of spent) await limiter.refund(b, s);
          return decision;
        }
        spent.push([budget, subject]);
      }
      return null;
    };

    router.options(FORM_PATHS, allowAnyOrigin, (_req, res) => void res.status(204).end());

    router.post(FORM_PATHS, allowAnyOrigin, ...parseBody, async (req, res, next) => {
      const formId = String(req.params.formId);
      try {
        const refused = await admit(req, formId);
        if (refused) {
          const retryAfter = setRetryAfter(res, refused);
          const message = refusalMessage(refused, retryAfter);
          if (wantsJson(req)) return void res.status(429).json({ success: false, error: message });
          return void res.status(429).type("html").send(formProblemPage("Too many signups", message));
        }
        const body: unknown = req.body ?? {};
        const violation = inputBoundsViolation(body);
        if (violation) return answerError(req, res, invalid(`Invalid request: ${violation.path} ${violation.message}`, [violation]));
        const submission = decode(FormSubmission, body);
        if (submission._tag === "Left") return answerError(req, res, submission.left);
        const outcome = await submitForm.execute(formId, submission.right);
        if (outcome._tag === "Left") return answerError(req, res, outcome.left);
        const { form, successMessage, redirectUrl, stored } = outcome.right;
        const landingPageId = submission.right.landingPageId;
        if (stored && landingPageId) await recordConversion.execute(form.companyId, landingPageId);
        if (wantsJson(req)) return void res.json({ success: true, message: successMessage, ...(redirectUrl ? { redirectUrl } : {}) });
        if (redirectUrl) return void res.redirect(303, redirectUrl);
        res.status(200).type("html").set("Cache-Control", "no-store").send(formThanksPage(successMessage));
      } catch (error) {
        // The app's error handler logs it and answers 503 (database away) or 500.
        next(error);
      }
    });

    router.get(
      FORM_PATHS.map((path) => `${path}/embed.js`),
      async (req, res, next) => {
        try {
          const form = await forms.findPublic(String(req.params.formId));
          res.set({ "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" }).type("application/javascript");
          if (!form) return void res.status(404).set("Cache-Control", "no-store").send("/* Form not found */\n");
          // A few minutes: a form's edits show soon, and a busy page does not ask on every view.
          res.set("Cache-Control", "public, max-age=300").send(formEmbedScript(form, formActionUrl(baseUrl, form.id)));
        } catch (error) {
          next(error);
        }
      },
    );

    return router;
  },
);
