import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import type { PrivateKeyReader } from "../../core/data-exports/ports.js";

/** node:crypto's PEM parser; the fingerprint is SHA-256 over the public key (SPKI, DER), as `ssh-keygen -l` prints. */
export class NodePrivateKeyReader implements PrivateKeyReader {
  fingerprint(pem: string): string | null {
    if (!pem.includes("PRIVATE KEY-----")) return null;
    try {
      const spki = createPublicKey(createPrivateKey({ key: pem, format: "pem" })).export({ type: "spki", format: "der" });
      return `SHA256:${createHash("sha256").update(spki).digest("base64").replace(/=+$/, "")}`;
    } catch {
      return null;
    }
  }
}
