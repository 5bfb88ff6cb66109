/**
 * Reads one object of a bucket as a stream (CSV imports from `s3://` and `gs://`), with the
 * operator's own cloud credentials. Implemented for S3 and GCS in adapters/s3 and adapters/gcs.
 */
export interface RemoteObject {
  /** Bytes in the object, when the service says (for a progress estimate). */
  readonly size: number | null;
  /** The object's content; the stream fails with an ObjectReadError when the read fails part-way. */
  read(): AsyncIterable<Uint8Array>;
}

/** Why an object cannot be read, in one line for the operator (missing, denied, no credentials). */
export class ObjectReadError extends Error {
  override readonly name = "ObjectReadError";
}

/** Finds the object and checks it can be read, before anything is imported; rejects with ObjectReadError. */
export type OpenObject = (bucket: string, key: string) => Promise<RemoteObject>;
