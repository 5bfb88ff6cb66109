import { forbidden, unauthorized } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { isOriginAllowed } from "./allowed-origins.js";
import type { WebTrackingKey } from "./model.js";
import type { WebTrackingKeyRepository } from "./ports.js";

export const PUBLIC_KEY_REQUIRED = unauthorized("publicKey is required");
export const INVALID_PUBLIC_KEY = unauthorized("Invalid public key");
export const INACTIVE_KEY = forbidden("Web tracking key is inactive");
export const ORIGIN_NOT_ALLOWED = forbidden("Origin not allowed for this web tracking key");

/**
 * Whether a page may send events to a company's endpoint: the public key it presents must be an
 * active key of that company (a key of another company is as unknown as a made-up one), and the
 * page's origin one the key allows. A request without an `Origin` (not from a browser page) passes
 * only an unrestricted key.
 */
export class AdmitWebPage {
  constructor(private readonly keys: WebTrackingKeyRepository) {}

  execute = async (companyId: string, publicKey: string | undefined, origin: string | null): Promise<Result<WebTrackingKey>> => {
    if (!publicKey) return fail(PUBLIC_KEY_REQUIRED);
    const key = await this.keys.findByPublicKey(publicKey);
    if (!key || key.companyId !== companyId) return fail(INVALID_PUBLIC_KEY);
    if (!key.isActive) return fail(INACTIVE_KEY);
    if (!isOriginAllowed(origin, key.allowedOrigins)) return fail(ORIGIN_NOT_ALLOWED);
    return ok(key);
  };

  /** For a CORS preflight that names no key: whether any active key of the company admits the origin. */
  anyKeyAdmits = async (companyId: string, origin: string | null): Promise<boolean> =>
    origin !== null && (await this.keys.list(companyId)).some((key) => key.isActive && isOriginAllowed(origin, key.allowedOrigins));
}
