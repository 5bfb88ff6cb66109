import { randomBytes } from "node:crypto";
import type { RandomTokens } from "../../core/ports/random-tokens.js";

/** 192 random bits as 32 base64url characters. */
export class CryptoRandomTokens implements RandomTokens {
  next(): string {
    return randomBytes(24).toString("base64url");
  }
}
