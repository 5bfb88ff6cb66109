import { createHash } from "node:crypto";
import type { Request } from "express";

/** The key from `Authorization: Bearer <key>` or `x-api-key: <key>`. */
export function presentedKey(req: Request): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = req.headers["x-api-key"];
  return typeof header === "string" && header.trim() ? header.trim() : undefined;
}

/** A digest of the credentials a request presents (key and x-company-id), to remember them by; undefined without a key. */
export function credentialsDigest(req: Request): string | undefined {
  const key = presentedKey(req);
  if (!key) return undefined;
  const company = req.headers["x-company-id"];
  return createHash("sha256")
    .update(`${key}\n${typeof company === "string" ? company.trim() : ""}`)
    .digest("base64url");
}
