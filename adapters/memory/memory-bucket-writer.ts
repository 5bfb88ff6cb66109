import { BucketWriteError, type Bucket, type BucketDestination, type BucketWriter, type ObjectOptions } from "../../core/ports/bucket-writer.js";

export interface StoredObject {
  readonly body: Buffer;
  readonly contentType: string;
  readonly contentEncoding: string | undefined;
}

/** A write about to happen, as seen by `failWritesWhen`. */
export interface PendingWrite {
  readonly kind: "put" | "upload";
  readonly destination: BucketDestination;
  readonly key: string;
}

export interface MemoryBucketWriterOptions {
  /** The buckets that exist; when omitted every bucket exists (created on first write). */
  readonly buckets?: readonly string[];
  /** The only credentials accepted; when omitted any are. */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** Largest object accepted. Default 5 GiB, as the S3 adapter. */
  readonly maxObjectBytes?: number;
}

/**
 * Buckets kept in this process, for tests and embedders: the same commit semantics as the S3
 * adapter (an upload is invisible until its body has been read whole; a failed one leaves
 * nothing), with helpers to read what was written and to make writes fail.
 */
export class MemoryBucketWriter implements BucketWriter {
  /** Every destination opened, in order (credentials included: tests check what was unsealed). */
  readonly opened: BucketDestination[] = [];
  private readonly objects = new Map<string, Map<string, StoredObject>>();
  private readonly inProgress = new Map<string, Set<string>>();
  private readonly knownBuckets: Set<string> | null;
  private readonly maxObjectBytes: number;
  private failures: { remaining: number; message: string } | null = null;
  private failurePredicate: ((write: PendingWrite) => string | null | undefined) | null = null;
  private open_ = 0;

  constructor(private readonly options: MemoryBucketWriterOptions = {}) {
    this.knownBuckets = options.buckets ? new Set(options.buckets) : null;
    this.maxObjectBytes = options.maxObjectBytes ?? 5 * 1024 ** 3;
  }

  open(destination: BucketDestination): Bucket {
    this.opened.push(destination);
    this.open_ += 1;
    let closed = false;
    return {
      put: async (key, body, options) => {
        this.admit({ kind: "put", destination, key });
        const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
        this.checkSize(bytes.byteLength);
        this.store(destination.bucket, key, bytes, options);
      },
      upload: async (key, body, options) => this.upload(destination, key, body, options),
      exists: async (key) => {
        this.checkCredentials(destination);
        return this.objects.get(destination.bucket)?.has(key) ?? false;
      },
      close: () => {
        if (!closed) this.open_ -= 1;
        closed = true;
      },
    };
  }

  /** Keys written to `bucket` (under `prefix`), sorted; uploads in progress are not among them. */
  keys(bucket: string, prefix = ""): string[] {
    return [...(this.objects.get(bucket)?.keys() ?? [])].filter((key) => key.startsWith(prefix)).sort();
  }

  read(bucket: string, key: string): Buffer | undefined {
    return this.objects.get(bucket)?.get(key)?.body;
  }

  object(bucket: string, key: string): StoredObject | undefined {
    return this.objects.get(bucket)?.get(key);
  }

  /** Keys whose upload has started and not yet ended. */
  uploadsInProgress(bucket: string): string[] {
    return [...(this.inProgress.get(bucket) ?? [])].sort();
  }

  /** Buckets opened and not yet closed. */
  get openBuckets(): number {
    return this.open_;
  }

  /** The next `count` writes (put or upload) fail with `message`; an upload fails after reading its body. */
  failNextWrites(count: number, message = "The destination is unavailable; the export will retry."): void {
    this.failures = count > 0 ? { remaining: count, message } : null;
  }

  /** Every write for which `predicate` returns a message fails with it, until called with null. */
  failWritesWhen(predicate: ((write: PendingWrite) => string | null | undefined) | null): void {
    this.failurePredicate = predicate;
  }

  /** Removes every object (buckets stay). */
  clear(): void {
    this.objects.clear();
  }

  private async upload(destination: BucketDestination, key: string, body: AsyncIterable<Uint8Array>, options: ObjectOptions) {
    this.admit({ kind: "upload", destination, key });
    const bucket = destination.bucket;
    const uploading = this.inProgress.get(bucket) ?? new Set<string>();
    this.inProgress.set(bucket, uploading);
    uploading.add(key);
    try {
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of body) {
        bytes += chunk.byteLength;
        this.checkSize(bytes);
        chunks.push(Buffer.from(chunk));
      }
      const failure = this.injectedFailure({ kind: "upload", destination, key });
      if (failure) throw new BucketWriteError(failure);
      this.store(bucket, key, Buffer.concat(chunks), options);
      return { bytes };
    } finally {
      uploading.delete(key);
    }
  }

  /** Checks what S3 would check before taking a write; injected put failures happen here. */
  private admit(write: PendingWrite): void {
    this.checkCredentials(write.destination);
    if (this.knownBuckets && !this.knownBuckets.has(write.destination.bucket)) {
      throw new BucketWriteError(`The bucket "${write.destination.bucket}" does not exist.`);
    }
    if (write.kind === "put") {
      const failure = this.injectedFailure(write);
      if (failure) throw new BucketWriteError(failure);
    }
  }

  private checkCredentials(destination: BucketDestination): void {
    const expected = this.options.credentials;
    if (!expected) return;
    if (destination.accessKeyId !== expected.accessKeyId) throw new BucketWriteError("The access key ID is not known to the destination.");
    if (destination.secretAccessKey !== expected.secretAccessKey) throw new BucketWriteError("The secret access key does not match the access key ID.");
  }

  private checkSize(bytes: number): void {
    if (bytes > this.maxObjectBytes) throw new BucketWriteError(`The file is larger than the ${this.maxObjectBytes}-byte limit per object.`);
  }

  private injectedFailure(write: PendingWrite): string | null {
    const fromPredicate = this.failurePredicate?.(write);
    if (fromPredicate) return fromPredicate;
    if (!this.failures) return null;
    const { message } = this.failures;
    this.failures.remaining -= 1;
    if (this.failures.remaining <= 0) this.failures = null;
    return message;
  }

  private store(bucket: string, key: string, body: Buffer, options: ObjectOptions): void {
    const objects = this.objects.get(bucket) ?? new Map<string, StoredObject>();
    this.objects.set(bucket, objects);
    objects.set(key, { body, contentType: options.contentType, contentEncoding: options.contentEncoding });
  }
}
