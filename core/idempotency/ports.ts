import { token } from "../shared/token.js";

/** What makes two requests "the same request" for one Idempotency-Key. */
export interface RequestFingerprint {
  readonly method: string;
  readonly path: string;
  /** sha256 hex of the canonical (key-sorted) JSON body. */
  readonly requestHash: string;
}

/** What the store says when a request arrives with a key. */
export type IdempotencyBegin =
  /** The key was free (or expired): this request runs, and must `complete` or `abandon` it. */
  | { readonly kind: "started" }
  /** The same request already finished: send its response again. */
  | { readonly kind: "replay"; readonly status: number; readonly body: unknown }
  /** The same request is still running. */
  | { readonly kind: "in_flight" }
  /** The key was used for a different request. */
  | { readonly kind: "mismatch" };

/** The first response to each idempotency key, per company, until it expires. */
export interface IdempotencyStore {
  /** Claims the key atomically; an expired record counts as absent and is replaced. */
  begin(companyId: string, key: string, fingerprint: RequestFingerprint, now: Date, ttlMs: number): Promise<IdempotencyBegin>;
  /** Stores the response of a started request, for replay. */
  complete(companyId: string, key: string, status: number, body: unknown): Promise<void>;
  /** Forgets a started request (it failed with a 5xx), so a retry may run again. */
  abandon(companyId: string, key: string): Promise<void>;
}
export const IdempotencyStore = token<IdempotencyStore>("lifecycle.IdempotencyStore");
