import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError } from "./config.js";

export const DEFAULT_SECRET_KEY_FILE = "./data/secret.key";

/** The 32-byte key in base64 text; a ConfigError naming `source` otherwise. */
export const decodeKey = (base64: string, source: string): Buffer => {
  const key = Buffer.from(base64.trim(), "base64");
  if (key.length !== 32) throw new ConfigError(`${source} must be 32 bytes in base64 (got ${key.length} bytes)`);
  return key;
};

/**
 * The master key for stored secrets and signed tokens: SECRET_KEY when set, otherwise the key
 * generated once into ./data/secret.key (mode 0600) and read back on every later start.
 */
export function loadSecretKey(configured: string | undefined, file = DEFAULT_SECRET_KEY_FILE): Buffer {
  if (configured) return decodeKey(configured, "SECRET_KEY");
  try {
    return decodeKey(readFileSync(file, "utf8"), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  // Written aside, then linked into place: when two processes start together exactly one key
  // wins, and nobody ever reads a half-written file.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, randomBytes(32).toString("base64") + "\n", { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(draft);
  }
  return decodeKey(readFileSync(file, "utf8"), file);
}
