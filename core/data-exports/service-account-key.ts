import type { ServiceAccountKey } from "../ports/bucket-writer.js";
import { isEmailAddress } from "../shared/email-address.js";
import { fail, ok, type Result } from "../shared/result.js";
import { invalidInput } from "./errors.js";
import type { PrivateKeyReader } from "./ports.js";

/** Google's OAuth token endpoint: the only `token_uri` a key may name (the client uses this one whatever the key says). */
export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
/** Hosts the URLs of a genuine key file point to (auth_uri, certificate URLs). */
const GOOGLE_HOSTS = new Set(["accounts.google.com", "oauth2.googleapis.com", "www.googleapis.com"]);
/** A real key file is about 2,400 characters. */
export const MAX_SERVICE_ACCOUNT_KEY_LENGTH = 16_384;

export interface CheckedServiceAccountKey {
  readonly key: ServiceAccountKey;
  /** `SHA256:<base64>` of the public key: tells keys apart without showing one. */
  readonly fingerprint: string;
}

const NOT_A_KEY = "serviceAccountKey must be the content of a service account's JSON key file (an object, or the file's text as a string)";

/**
 * A service account's JSON key, checked before anything is saved or sent: a `service_account`
 * key with an email, a private key that parses, and Google's token endpoint. Any URL in it must
 * be Google's, so a crafted file cannot name an address for the server to call.
 */
export function checkServiceAccountKey(raw: unknown, keys: PrivateKeyReader): Result<CheckedServiceAccountKey> {
  const parsed = parseKey(raw);
  if (parsed._tag === "Left") return parsed;
  const file = parsed.right;
  if (file["type"] !== "service_account") {
    return fail(invalidInput(`serviceAccountKey.type must be "service_account" (a service account's key file from the Google Cloud console)`));
  }
  const email = file["client_email"];
  if (typeof email !== "string" || !isEmailAddress(email.trim()))
    return fail(invalidInput("serviceAccountKey.client_email must be the service account's email address"));
  if (file["token_uri"] !== GOOGLE_TOKEN_URI) return fail(invalidInput(`serviceAccountKey.token_uri must be ${GOOGLE_TOKEN_URI}`));
  const universe = file["universe_domain"];
  if (universe !== undefined && universe !== "googleapis.com") return fail(invalidInput('serviceAccountKey.universe_domain must be "googleapis.com"'));
  const foreign = foreignUrl(file);
  if (foreign) return fail(invalidInput(`serviceAccountKey.${foreign} must be a URL of Google (${[...GOOGLE_HOSTS].join(", ")})`));
  const privateKey = file["private_key"];
  const fingerprint = typeof privateKey === "string" ? keys.fingerprint(privateKey) : null;
  if (fingerprint === null) return fail(invalidInput("serviceAccountKey.private_key must be a PEM private key (-----BEGIN PRIVATE KEY----- ...)"));
  const text = (name: string): string | null => {
    const value = file[name];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
  };
  return ok({
    key: { clientEmail: email.trim(), privateKey: privateKey as string, privateKeyId: text("private_key_id"), projectId: text("project_id") },
    fingerprint,
  });
}

function parseKey(raw: unknown): Result<Record<string, unknown>> {
  let value = raw;
  if (typeof raw === "string") {
    if (raw.length > MAX_SERVICE_ACCOUNT_KEY_LENGTH)
      return fail(invalidInput(`serviceAccountKey must be at most ${MAX_SERVICE_ACCOUNT_KEY_LENGTH} characters`));
    try {
      value = JSON.parse(raw);
    } catch {
      return fail(invalidInput(NOT_A_KEY));
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fail(invalidInput(NOT_A_KEY));
  if (JSON.stringify(value).length > MAX_SERVICE_ACCOUNT_KEY_LENGTH) {
    return fail(invalidInput(`serviceAccountKey must be at most ${MAX_SERVICE_ACCOUNT_KEY_LENGTH} characters as JSON`));
  }
  return ok(value as Record<string, unknown>);
}

/** The path of the first value that looks like a URL and is not an https URL of Google's, or null. */
function foreignUrl(value: unknown, path = ""): string | null {
  if (typeof value === "string") {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(value.trim()) || value.includes("PRIVATE KEY")) return null;
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      return null;
    }
    return url.protocol === "https:" && GOOGLE_HOSTS.has(url.hostname.toLowerCase()) && url.port === "" && url.username === "" ? null : path;
  }
  if (value === null || typeof value !== "object") return null;
  for (const [key, item] of Object.entries(value)) {
    const found = foreignUrl(item, path === "" ? key : `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}
