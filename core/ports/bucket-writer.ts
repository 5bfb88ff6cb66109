import { token } from "../shared/token.js";

/**
 * Writes objects into a customer's bucket (data exports). One adapter serves Amazon S3,
 * S3-compatible services and GCS with HMAC keys, another GCS with a service account's key; a
 * memory adapter serves tests and embedders.
 */

/** The parts of a service account's JSON key that are used; Google's endpoints are fixed, never read from the key. */
export interface ServiceAccountKey {
  readonly clientEmail: string;
  /** PEM (PKCS#8), as Google issues it. */
  readonly privateKey: string;
  readonly privateKeyId: string | null;
  readonly projectId: string | null;
}

/** Where to write, with the credentials in plain text (unsealed only for the call). */
export interface BucketDestination {
  readonly provider: "s3" | "gcs";
  readonly bucket: string;
  /** `auto` for gcs and for custom endpoints without a region. */
  readonly region: string;
  /** HTTPS origin of an S3-compatible service; null for Amazon S3 (and gcs, which has a fixed one). */
  readonly endpoint: string | null;
  /** The HMAC access key ID; with a service account key, its `client_email`. */
  readonly accessKeyId: string;
  /** The HMAC secret; empty with a service account key. */
  readonly secretAccessKey: string;
  /** GCS only: write with this service account key (Google's JSON API) instead of HMAC keys. */
  readonly serviceAccountKey?: ServiceAccountKey;
}

export interface ObjectOptions {
  readonly contentType: string;
  /** e.g. `gzip` for `.jsonl.gz` files. */
  readonly contentEncoding?: string;
}

/** A write the destination refused or could not take; `message` is readable by the customer. */
export class BucketWriteError extends Error {
  override readonly name = "BucketWriteError";
}

/** An open connection to one destination; close it when done. */
export interface Bucket {
  /** Writes a small object in one request (connection test, manifest). */
  put(key: string, body: string | Uint8Array, options: ObjectOptions): Promise<void>;
  /**
   * Streams `body` to `key` without buffering it whole. Nothing is visible at `key` until the
   * whole body is written: the parts go to a pending upload that is committed at the end (S3
   * multipart completion, which is atomic), and a failed upload is aborted, leaving nothing at
   * `key`. Returns the bytes written.
   */
  upload(key: string, body: AsyncIterable<Uint8Array>, options: ObjectOptions): Promise<{ readonly bytes: number }>;
  /** Whether an object exists at `key` (used to resume a run that died half-way). */
  exists(key: string): Promise<boolean>;
  close(): void;
}

export interface BucketWriter {
  /** Every call of the bucket rejects with BucketWriteError on failure, including a destination that resolves to a private address (unless ALLOW_PRIVATE_DESTINATIONS). */
  open(destination: BucketDestination): Bucket;
}
export const BucketWriter = token<BucketWriter>("lifecycle.BucketWriter");
