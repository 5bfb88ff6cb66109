import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { DkimKeyGenerator, DkimKeyPair } from "../../core/company/ports.js";

const generate = promisify(generateKeyPair);

/** RSA-2048 DKIM keys: the public key as the DER SubjectPublicKeyInfo in base64 (the record's p=), the private key as PKCS#8 PEM. */
export class RsaDkimKeyGenerator implements DkimKeyGenerator {
  async generate(): Promise<DkimKeyPair> {
    const { publicKey, privateKey } = await generate("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "der" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    return { publicKey: (publicKey as unknown as Buffer).toString("base64"), privateKey: privateKey };
  }
}
