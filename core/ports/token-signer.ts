import { token } from "../shared/token.js";

/**
 * Signs small payloads into URL-safe tokens (tracking links, unsubscribe pages, previews) and
 * checks them: `verify` returns the payload only for a token this server signed for the same
 * purpose, unchanged, and not past its expiry.
 */
export interface TokenSigner {
  sign(purpose: string, payload: Record<string, unknown>, expiresAt?: Date): string;
  verify(purpose: string, token: string, now: Date): Record<string, unknown> | null;
}
export const TokenSigner = token<TokenSigner>("lifecycle.TokenSigner");
