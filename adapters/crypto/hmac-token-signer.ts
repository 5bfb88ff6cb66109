import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { TokenSigner } from "../../core/ports/token-signer.js";

/**
 * Tokens are `base64url(JSON payload).base64url(HMAC-SHA256)`, the MAC covering the purpose
 * too, so a token made for one use (an open pixel) is refused for another (an unsubscribe).
 * The key is derived (HKDF) from the master key. An expiry travels in the payload as `exp`
 * (epoch milliseconds).
 */
export class HmacTokenSigner implements TokenSigner {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), "lifecycle token signer", 32));
  }

  sign(purpose: string, payload: Record<string, unknown>, expiresAt?: Date): string {
    const body = Buffer.from(JSON.stringify(expiresAt ? { ...payload, exp: expiresAt.getTime() } : payload)).toString("base64url");
    return `${body}.${this.mac(purpose, body).toString("base64url")}`;
  }

  verify(purpose: string, token: string, now: Date): Record<string, unknown> | null {
    const dot = token.indexOf(".");
    if (dot <= 0) return null;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = this.mac(purpose, body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown;
      if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
      const { exp } = payload as { exp?: unknown };
      if (typeof exp === "number" && exp <= now.getTime()) return null;
      return payload as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  private mac(purpose: string, body: string): Buffer {
    return createHmac("sha256", this.key).update(purpose).update("\u0000").update(body).digest();
  }
}
