import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import type { MintedKey } from "../../core/api-keys/model.js";
import type { ApiKeySecrets } from "../../core/api-keys/ports.js";

const KEY_PREFIX = "lcsk_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const PREFIX_LENGTH = 12;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/** Uniform base62 characters: bytes of 248 and above are dropped so `% 62` has no bias. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** CRC-32 of the key body in 6 base62 characters: typos and truncations are rejected without a lookup. */
function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** Keys are `lcsk_` + 32 base62 characters + a 6-character checksum; only the SHA-256 hash is stored. */
export class Sha256ApiKeySecrets implements ApiKeySecrets {
  mint(): MintedKey {
    const body = KEY_PREFIX + randomBase62(RANDOM_LENGTH);
    const plain = body + checksum(body);
    return { plain, prefix: plain.slice(0, PREFIX_LENGTH), hash: sha256(plain) };
  }

  hashPresented(plain: string): string | null {
    if (!KEY_PATTERN.test(plain)) return null;
    const body = plain.slice(0, KEY_PREFIX.length + RANDOM_LENGTH);
    return checksum(body) === plain.slice(body.length) ? sha256(plain) : null;
  }
}
