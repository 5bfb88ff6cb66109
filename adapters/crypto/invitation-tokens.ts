import { createHash, randomBytes } from "node:crypto";
import type { InvitationTokens, MintedInvitationToken } from "../../core/team/ports.js";

const PREFIX = "lcinv_";
/** 32 random bytes, base64url. */
const TOKEN_PATTERN = /^lcinv_[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** Invitation tokens are `lcinv_` + 256 random bits; only their SHA-256 hash is stored. */
export class Sha256InvitationTokens implements InvitationTokens {
  mint(): MintedInvitationToken {
    const plain = PREFIX + randomBytes(32).toString("base64url");
    return { plain, hash: sha256(plain) };
  }

  hashPresented(plain: string): string | null {
    return TOKEN_PATTERN.test(plain) ? sha256(plain) : null;
  }
}
