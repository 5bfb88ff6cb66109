import { fail, ok, type Result } from "../shared/result.js";
import { endpointOriginProblem } from "./endpoint-origin.js";
import type { Credentials } from "./credentials.js";
import { invalidInput } from "./errors.js";
import { DATASETS, MAX_NAME_LENGTH, MAX_START_FROM_AGE_MS, type Dataset, type Provider } from "./model.js";

/** Longest credentials accepted (real ones are far shorter). */
export const MAX_ACCESS_KEY_ID_LENGTH = 256;
export const MAX_SECRET_LENGTH = 1024;

const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const GCS_BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,64}$/;

/**
 * The rules of a data export's input beyond types (400 with `code: invalid_input`), each with
 * its own sentence.
 */
const blank = (value: string | null | undefined): boolean => value === undefined || value === null || value.trim() === "";

/** A bucket name (not a URL) by the provider's naming rules. */
export function checkBucket(provider: Provider, raw: string): Result<string> {
  const bucket = raw.trim();
  if (bucket === "") return fail(invalidInput("bucket is required"));
  if (bucket.includes("/") || bucket.includes(":")) return fail(invalidInput("bucket must be a bucket name, not a URL or path"));
  const valid = provider === "s3" ? S3_BUCKET.test(bucket) : GCS_BUCKET.test(bucket);
  if (!valid) {
    return fail(
      invalidInput(
        provider === "s3"
          ? "bucket must be 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit"
          : "bucket must be 3 to 222 lower-case letters, digits, dots, hyphens and underscores, starting and ending with a letter or digit",
      ),
    );
  }
  return ok(bucket);
}

/** The endpoint's origin, or null; never with gcs (its endpoint is fixed). */
export function checkEndpoint(provider: Provider, raw: string | null | undefined, allowPrivate: boolean): Result<string | null> {
  if (blank(raw)) return ok(null);
  if (provider === "gcs") return fail(invalidInput("endpoint is not allowed with provider gcs (its endpoint is fixed)"));
  const endpoint = raw!.trim();
  const problem = endpointOriginProblem(endpoint, allowPrivate);
  if (problem) return fail(invalidInput(problem));
  return ok(new URL(endpoint).origin);
}

/** Required for s3 without a custom endpoint; `auto` for gcs and custom endpoints when not given. */
export function checkRegion(provider: Provider, raw: string | null | undefined, endpoint: string | null): Result<string> {
  if (blank(raw)) {
    if (provider === "s3" && endpoint === null) return fail(invalidInput("region is required for provider s3 without a custom endpoint"));
    return ok("auto");
  }
  const region = raw!.trim();
  return REGION.test(region) ? ok(region) : fail(invalidInput("region must be a region name such as us-east-1 (lower-case letters, digits and hyphens)"));
}

export function checkCredentials(accessKeyId: string | undefined, secretAccessKey: string | undefined): Result<Credentials & { type: "hmac" }> {
  const id = accessKeyId?.trim() ?? "";
  const secret = secretAccessKey?.trim() ?? "";
  if (id === "") return fail(invalidInput("accessKeyId is required"));
  if (secret === "") return fail(invalidInput("secretAccessKey is required"));
  if (id.length > MAX_ACCESS_KEY_ID_LENGTH) return fail(invalidInput(`accessKeyId must be at most ${MAX_ACCESS_KEY_ID_LENGTH} characters`));
  if (secret.length > MAX_SECRET_LENGTH) return fail(invalidInput(`secretAccessKey must be at most ${MAX_SECRET_LENGTH} characters`));
  return ok({ type: "hmac", accessKeyId: id, secretAccessKey: secret });
}

export function checkName(raw: string): Result<string> {
  const name = raw.trim();
  if (name === "") return fail(invalidInput("name is required"));
  if (name.length > MAX_NAME_LENGTH) return fail(invalidInput(`name must be at most ${MAX_NAME_LENGTH} characters`));
  return ok(name);
}

/** Every dataset when omitted; each named once, in the catalog's order. */
export function checkDatasets(raw: readonly Dataset[] | undefined): Result<readonly Dataset[]> {
  if (raw === undefined) return ok(DATASETS);
  if (raw.length === 0) return fail(invalidInput(`datasets must name at least one of: ${DATASETS.join(", ")}`));
  return ok(DATASETS.filter((dataset) => raw.includes(dataset)));
}

/** Now when omitted; at most 30 days ago. */
export function checkStartFrom(raw: Date | null | undefined, now: Date): Result<Date> {
  if (raw === undefined || raw === null) return ok(now);
  if (raw.getTime() < now.getTime() - MAX_START_FROM_AGE_MS) return fail(invalidInput("startFrom must be at most 30 days ago"));
  return ok(raw);
}
