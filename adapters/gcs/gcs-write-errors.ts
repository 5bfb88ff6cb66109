import { BucketWriteError } from "../../core/ports/bucket-writer.js";

/** What a failure message may mention: never the private key, which is scrubbed in any case. */
export interface GcsFailureContext {
  readonly bucket: string;
  readonly clientEmail: string;
  readonly timeoutMs: number;
  readonly privateKey: string;
}

interface ErrorLike {
  readonly name?: string;
  readonly code?: number | string;
  readonly message?: string;
  readonly cause?: unknown;
  readonly errors?: ReadonlyArray<{ readonly reason?: string; readonly message?: string }>;
  readonly response?: { readonly status?: number; readonly data?: unknown };
}

export const GCS_HOST = "storage.googleapis.com";

/** The JSON API's error reasons (errors[].reason) and what they mean to the customer. */
const REASONS: Record<string, (c: GcsFailureContext) => string> = {
  notFound: (c) => `The bucket "${c.bucket}" does not exist.`,
  forbidden: (c) =>
    `Permission denied: the service account ${c.clientEmail} may not write to the bucket "${c.bucket}" (it needs storage.objects.create, e.g. the Storage Object Creator role on the bucket).`,
  insufficientPermissions: (c) => `Permission denied: the service account ${c.clientEmail} may not write to the bucket "${c.bucket}".`,
  accountDisabled: (c) => `Billing is disabled for the Google Cloud project that owns the bucket "${c.bucket}".`,
  userProjectAccountProblem: () => "The Google Cloud project billed for this request has a billing problem (billing disabled or the account closed).",
  billingNotEnabled: (c) => `Billing is not enabled for the Google Cloud project that owns the bucket "${c.bucket}".`,
  retentionPolicyNotMet: (c) => `The bucket "${c.bucket}" has a retention policy that keeps existing objects from being replaced.`,
  rateLimitExceeded: () => "Google Cloud Storage is throttling requests; the export will retry.",
  backendError: () => "Google Cloud Storage had an internal error; the export will retry.",
};

/** Network failures by Node error code. */
const NETWORK: Record<string, string> = {
  ENOTFOUND: `The host "${GCS_HOST}" could not be found.`,
  EAI_AGAIN: `The host "${GCS_HOST}" could not be resolved (temporary DNS failure).`,
  ECONNREFUSED: `The host "${GCS_HOST}" refused the connection.`,
  ECONNRESET: `The connection to "${GCS_HOST}" was reset.`,
  EHOSTUNREACH: `The host "${GCS_HOST}" is unreachable.`,
  ENETUNREACH: `The host "${GCS_HOST}" is unreachable.`,
};

const timeoutMessage = (c: GcsFailureContext) => {
  const seconds = Math.round(c.timeoutMs / 100) / 10;
  return `Google Cloud Storage did not answer within ${seconds} second${seconds === 1 ? "" : "s"}.`;
};

/** The error a timed-out call is aborted with. */
export class GcsTimeout extends Error {
  override readonly name = "GcsTimeout";
}

function* chain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  for (let next = error; next !== null && typeof next === "object" && !seen.has(next); next = (next as ErrorLike).cause) {
    seen.add(next);
    yield next;
  }
}

/** The OAuth answer to a refused key: `{error: "invalid_grant", error_description}`. */
function tokenRefusal(e: ErrorLike): string | null {
  const data = e.response?.data as { error?: unknown; error_description?: unknown } | undefined;
  if (!data || typeof data.error !== "string") return null;
  const description = typeof data.error_description === "string" ? `: ${data.error_description}` : "";
  return `Google refused the service account key (${data.error}${description}); the key may have been deleted or disabled, or the account removed.`;
}

function describe(error: unknown, context: GcsFailureContext): string {
  const errors = [...chain(error)];
  for (const e of errors) {
    if (e instanceof GcsTimeout) return timeoutMessage(context);
    const refusal = tokenRefusal(e);
    if (refusal) return refusal;
    // The client's ApiError carries the JSON API's errors[]; a failed resumable request, its response body.
    const body = e.response?.data as { error?: { errors?: ErrorLike["errors"] } } | undefined;
    const inners = [...(e.errors ?? []), ...(typeof body?.error === "object" ? (body.error.errors ?? []) : [])];
    for (const inner of inners) {
      const reason = inner.reason !== undefined ? REASONS[inner.reason] : undefined;
      if (reason) return reason(context);
    }
  }
  for (const e of errors) {
    const network = typeof e.code === "string" ? NETWORK[e.code] : undefined;
    if (network) return network;
    if (e.code === "ETIMEDOUT" || e.name === "AbortError") return timeoutMessage(context);
    if (typeof e.code === "string" && (e.code.startsWith("ERR_TLS") || /CERT|SSL|TLS/.test(e.code)))
      return `The TLS certificate of "${GCS_HOST}" could not be verified.`;
  }
  const status = errors.map((e) => (typeof e.code === "number" ? e.code : e.response?.status)).find((s) => s !== undefined);
  if (status === 401) return "Google refused the service account key (401 Unauthorized).";
  if (status === 403) return `Permission denied: the service account ${context.clientEmail} may not write to the bucket "${context.bucket}".`;
  if (status === 404) return `The bucket "${context.bucket}" does not exist.`;
  if (status === 429) return "Google Cloud Storage is throttling requests; the export will retry.";
  if (status !== undefined && status >= 500) return `Google Cloud Storage is unavailable (${status}); the export will retry.`;
  if (status !== undefined) return `Google Cloud Storage answered ${status}.`;
  // Anything else: only its name, as a raw message may carry request details.
  const first = errors[0];
  const name = typeof first?.code === "string" ? first.code : first?.name;
  return `Google Cloud Storage could not be written${name && name !== "Error" ? ` (${name})` : ""}.`;
}

/** `error` as a BucketWriteError a customer can act on, never holding the key. */
export function toGcsWriteError(error: unknown, context: GcsFailureContext): BucketWriteError {
  if (error instanceof BucketWriteError) return error;
  const message = describe(error, context);
  return new BucketWriteError(context.privateKey.length > 0 ? message.split(context.privateKey).join("***") : message, { cause: error });
}

/** The HTTP status of a JSON API error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  for (const e of chain(error)) {
    if (typeof e.code === "number") return e.code;
    if (e.response?.status !== undefined) return e.response.status;
  }
  return undefined;
}
