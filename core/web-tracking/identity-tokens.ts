import type { TokenSigner } from "../ports/token-signer.js";

/** Its own purpose: no other token this server signs (links, previews) passes for an identity. */
const IDENTITY = "web-tracking.identity";

export interface WebIdentity {
  readonly keyId: string;
  readonly email: string;
}

/**
 * Identity tokens for the tracking script: signed by this server, expiring, and bound to one web
 * tracking key and one email address. The company's backend mints one for a signed-in visitor;
 * the browser cannot make one up, reuse another site's, or swap in another address.
 */
export class IdentityTokens {
  constructor(private readonly signer: TokenSigner) {}

  mint(identity: WebIdentity, expiresAt: Date): string {
    return this.signer.sign(IDENTITY, { k: identity.keyId, e: identity.email }, expiresAt);
  }

  /** The identity a token carries, or null when this server did not sign it or it has expired. */
  read(token: string, now: Date): WebIdentity | null {
    const payload = this.signer.verify(IDENTITY, token, now);
    const keyId = payload?.k;
    const email = payload?.e;
    return typeof keyId === "string" && typeof email === "string" ? { keyId, email } : null;
  }
}
