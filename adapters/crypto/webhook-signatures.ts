import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh signing secret for a delivery webhook: `whsec_` and 32 random bytes, base64url. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64url")}`;

/** `sha256=<hex>` of the raw body, as the relay sends it in X-Signature. */
export const signWebhookBody = (secret: string, body: Buffer | string): string => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** Checks an X-Signature header against the raw body in constant time. */
export function hasValidSignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const given = Buffer.from(header.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Signs outbound webhook deliveries: `v1=<hex HMAC-SHA256 of "v1:{timestamp}:{body}">` per active
 * secret, comma-separated, so a receiver holding either side of a rotation finds its own.
 */
export class HmacWebhookSigner {
  signature(secrets: readonly string[], timestamp: number, body: string): string {
    return secrets.map((secret) => `v1=${createHmac("sha256", secret).update(`v1:${timestamp}:${body}`).digest("hex")}`).join(",");
  }
}
