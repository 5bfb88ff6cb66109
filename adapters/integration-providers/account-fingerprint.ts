import { createHash } from "node:crypto";

/** An account ID derived from a secret, for providers whose account is not given or resolved (the same secret, the same account). */
export const fingerprint = (prefix: string, secret: string): string => `${prefix}_${createHash("sha256").update(secret).digest("hex").slice(0, 16)}`;
