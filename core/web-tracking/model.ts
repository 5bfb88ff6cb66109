import { notFound } from "../shared/errors.js";

/**
 * A publishable key for the browser tracking script (spec, Web tracking key). The public key is
 * not a secret: it sits in every page of the site. What guards it is its allowed origins, and
 * an identity token minted by the company's backend for any event to reach a contact.
 */
export interface WebTrackingKey {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly publicKey: string;
  /** Normalized origins (`https://shop.example.com`, `https://*.example.com`); empty: any site. */
  readonly allowedOrigins: readonly string[];
  readonly isActive: boolean;
  readonly lastUsedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Spec, Limits: web tracking allowedOrigins. */
export const MAX_ALLOWED_ORIGINS = 50;

/** Publishable keys read `lcpk_` + 32 URL-safe characters (secret API keys read `lcsk_`). */
export const PUBLIC_KEY_PREFIX = "lcpk_";

export const isUnrestricted = (key: Pick<WebTrackingKey, "allowedOrigins">): boolean => key.allowedOrigins.length === 0;

export const WEB_TRACKING_KEY_NOT_FOUND = notFound("Web tracking key not found");

/** The company's event endpoint the tracking script posts to (spec, Web tracking key `endpoint`). */
export const customerEventsPath = (companyId: string): string => `/api/webhooks/commerce/api/${encodeURIComponent(companyId)}/customer-events`;

/** Where the tracking script is served (decisions.md, Public surfaces). */
export const TRACKING_SCRIPT_PATH = "/tracking/v1.js";
