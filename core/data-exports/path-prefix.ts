import { fail, ok, type Result } from "../shared/result.js";
import { invalidInput } from "./errors.js";

/** Longest path prefix: object keys are at most 1,024 bytes and the export adds under 100. */
export const MAX_PATH_PREFIX_LENGTH = 512;

/** Letters, digits, `/` and `! _ . * ' ( ) = -` (spec): characters S3 and GCS keys take unescaped. */
const ALLOWED = /^[A-Za-z0-9/!_.*'()=-]*$/;

const invalid = (message: string) => fail<string>(invalidInput(message));

/**
 * The folder in the bucket: leading and trailing slashes removed; only the allowed characters;
 * no `..` segment (a key climbing out of the folder) and no empty segment (`a//b`).
 */
export function normalisePathPrefix(raw: string | null | undefined): Result<string> {
  const prefix = (raw ?? "").trim().replace(/^\/+|\/+$/g, "");
  if (!ALLOWED.test(prefix)) {
    return invalid("pathPrefix may only contain letters, digits, '/' and the characters ! _ . * ' ( ) = -");
  }
  if (prefix.length > MAX_PATH_PREFIX_LENGTH) return invalid(`pathPrefix must be at most ${MAX_PATH_PREFIX_LENGTH} characters`);
  if (prefix === "") return ok("");
  const segments = prefix.split("/");
  if (segments.includes("..")) return invalid("pathPrefix must not contain '..' segments");
  if (segments.includes("")) return invalid("pathPrefix must not contain empty segments ('//')");
  return ok(prefix);
}
