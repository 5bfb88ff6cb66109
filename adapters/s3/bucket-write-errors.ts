import { BucketWriteError } from "../../core/ports/bucket-writer.js";
import { REFUSED_ADDRESS } from "./destination-agents.js";

/** What a failure message may mention: never the secret, which is scrubbed in any case. */
export interface FailureContext {
  readonly bucket: string;
  readonly host: string;
  readonly region: string;
  readonly timeoutMs: number;
  readonly secretAccessKey: string;
}

interface ErrorLike {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
  readonly cause?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/** S3 error codes (as the SDK names its exceptions) and what they mean to the customer. */
const SERVICE_MESSAGES: Record<string, (c: FailureContext) => string> = {
  NoSuchBucket: (c) => `The bucket "${c.bucket}" does not exist.`,
  AccessDenied: (c) => `Access denied: these credentials may not write to the bucket "${c.bucket}".`,
  AllAccessDisabled: (c) => `Access to the bucket "${c.bucket}" is disabled.`,
  InvalidAccessKeyId: () => "The access key ID is not known to the destination.",
  SignatureDoesNotMatch: () => "The secret access key does not match the access key ID.",
  InvalidToken: () => "The credentials are not valid.",
  ExpiredToken: () => "The credentials have expired.",
  AccountProblem: () => "The destination account cannot be used (account problem reported by the service).",
  PermanentRedirect: (c) => `The bucket "${c.bucket}" is not in the region "${c.region}".`,
  AuthorizationHeaderMalformed: (c) => `The bucket "${c.bucket}" is not in the region "${c.region}".`,
  IllegalLocationConstraintException: (c) => `The bucket "${c.bucket}" is not in the region "${c.region}".`,
  InvalidBucketName: (c) => `"${c.bucket}" is not a valid bucket name.`,
  EntityTooLarge: () => "The file is larger than the destination accepts.",
  QuotaExceeded: () => "The destination's storage quota is exceeded.",
  SlowDown: () => "The destination is throttling requests; the export will retry.",
  ServiceUnavailable: () => "The destination is unavailable; the export will retry.",
  InternalError: () => "The destination had an internal error; the export will retry.",
};

/** Network failures by Node error code. */
const NETWORK_MESSAGES: Record<string, (c: FailureContext) => string> = {
  ENOTFOUND: (c) => `The host "${c.host}" could not be found.`,
  EAI_AGAIN: (c) => `The host "${c.host}" could not be resolved (temporary DNS failure).`,
  ECONNREFUSED: (c) => `The host "${c.host}" refused the connection.`,
  ECONNRESET: (c) => `The connection to "${c.host}" was reset.`,
  EHOSTUNREACH: (c) => `The host "${c.host}" is unreachable.`,
  ENETUNREACH: (c) => `The host "${c.host}" is unreachable.`,
  EPIPE: (c) => `The connection to "${c.host}" was closed while writing.`,
  ETIMEDOUT: (c) => timeoutMessage(c),
};

const timeoutMessage = (c: FailureContext) => {
  const seconds = Math.round(c.timeoutMs / 100) / 10;
  return `The destination "${c.host}" did not answer within ${seconds} second${seconds === 1 ? "" : "s"}.`;
};

/** Every error of a chain (`cause`, AggregateError from happy-eyeballs connects). */
function* chain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length > 0) {
    const next = pending.shift();
    if (next === null || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    yield next;
    pending.push((next as ErrorLike).cause);
    if (next instanceof AggregateError) pending.push(...(next.errors as unknown[]));
  }
}

function describe(error: unknown, context: FailureContext): string {
  const errors = [...chain(error)];
  if (errors.some((e) => REFUSED_ADDRESS.test(e.message ?? ""))) {
    return `The destination "${context.host}" resolves to a private or reserved address, which is not allowed.`;
  }
  for (const e of errors) {
    const service = e.name !== undefined ? SERVICE_MESSAGES[e.name] : undefined;
    if (service && e.$metadata) return service(context);
  }
  for (const e of errors) {
    if (e.name === "TimeoutError" || e.name === "AbortError") return timeoutMessage(context);
    const network = e.code !== undefined ? NETWORK_MESSAGES[e.code] : undefined;
    if (network) return network(context);
    if (e.code?.startsWith("ERR_TLS") || /CERT|SSL|TLS/.test(e.code ?? "")) {
      return `The TLS certificate of "${context.host}" could not be verified.`;
    }
  }
  const [first] = errors;
  const status = first?.$metadata?.httpStatusCode;
  if (status === 403) return `Access denied: these credentials may not write to the bucket "${context.bucket}".`;
  if (status === 404) return `The bucket "${context.bucket}" does not exist.`;
  if (status !== undefined && status >= 300 && status < 400) return `The destination "${context.host}" answered with a redirect, which is not followed.`;
  if (status !== undefined) return `The destination answered ${status}${first?.name ? ` (${first.name})` : ""}.`;
  // Anything else: only its name, as a raw message may carry request details.
  const name = first?.code ?? first?.name;
  return `The destination could not be written${name && name !== "Error" ? ` (${name})` : ""}.`;
}

/** `error` as a BucketWriteError whose message a customer can act on and that never holds the secret. */
export function toBucketWriteError(error: unknown, context: FailureContext): BucketWriteError {
  if (error instanceof BucketWriteError) return error;
  const message = describe(error, context);
  const scrubbed = context.secretAccessKey.length > 0 ? message.split(context.secretAccessKey).join("***") : message;
  return new BucketWriteError(scrubbed, { cause: error });
}
