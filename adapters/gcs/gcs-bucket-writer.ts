import { MeteredSource } from "../system/metered-source.js";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { CRC32C, IdempotencyStrategy, Storage, type Bucket as StorageBucket, type File } from "@google-cloud/storage";
import { BucketWriteError, type Bucket, type BucketDestination, type BucketWriter, type ObjectOptions } from "../../core/ports/bucket-writer.js";
import { GcsTimeout, statusOf, toGcsWriteError, type GcsFailureContext } from "./gcs-write-errors.js";

export interface GcsBucketWriterOptions {
  /** Longest silence of one call (a request, or an upload making no progress). Default 60 s. */
  readonly requestTimeoutMs?: number;
  /** Retries of one failed request (429, 5xx, network) inside a call; the job retries the run after that. Default 3. */
  readonly maxRetries?: number;
  /** Longest time one call spends retrying. Default 5 minutes. */
  readonly totalRetryMs?: number;
  /** Largest object written; a longer upload is abandoned. Default 5 GiB, as the S3 adapter. */
  readonly maxObjectBytes?: number;
  /** Bytes per request of a resumable upload (a multiple of 256 KiB); memory holds about one. Default 8 MiB. */
  readonly chunkBytes?: number;
  /** Where a body is spooled when an earlier attempt left an object at its key. Default the system's temporary directory. */
  readonly spoolDirectory?: string;
}

/** Google's JSON API; fixed, never taken from the key or the tenant. */
export const GCS_JSON_ENDPOINT = "https://storage.googleapis.com";
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OBJECT_BYTES = 5 * 1024 ** 3;
const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Writes to Google Cloud Storage with a service account's key, through @google-cloud/storage
 * (the JSON API; HMAC keys go through the S3 adapter). The client signs in at Google's fixed
 * token endpoint with the key's private key, and talks only to storage.googleapis.com.
 *
 * Exactly once: data files are resumable uploads that create the object only when the last byte
 * is in (an abandoned session leaves nothing), with `ifGenerationMatch: 0`, so a file already in
 * the bucket is never overwritten blindly. When an earlier attempt of the run left the file (it
 * died between the upload and recording it), the body is written to a temporary file and
 * compared: the same bytes are kept as they are; other bytes replace exactly that leftover
 * (`ifGenerationMatch` of its generation), never anything written meanwhile.
 */
export class GcsBucketWriter implements BucketWriter {
  private readonly settings: Required<GcsBucketWriterOptions>;

  constructor(options: GcsBucketWriterOptions = {}) {
    this.settings = {
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? 3,
      totalRetryMs: options.totalRetryMs ?? 5 * 60_000,
      maxObjectBytes: options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES,
      chunkBytes: options.chunkBytes ?? DEFAULT_CHUNK_BYTES,
      spoolDirectory: options.spoolDirectory ?? tmpdir(),
    };
  }

  open(destination: BucketDestination): Bucket {
    const key = destination.serviceAccountKey;
    if (destination.provider !== "gcs" || !key) return new RefusedBucket(new BucketWriteError("A service account key is only used with provider gcs."));
    if (destination.endpoint !== null) return new RefusedBucket(new BucketWriteError("An endpoint cannot be given for gcs."));
    const { requestTimeoutMs, maxRetries, totalRetryMs } = this.settings;
    const storage = new Storage({
      // Only what signing needs: the token endpoint and the universe are Google's defaults, never the key's.
      credentials: { type: "service_account", client_email: key.clientEmail, private_key: key.privateKey },
      // A project is not needed to write objects; naming one keeps the client from looking it up.
      projectId: key.projectId ?? "unused",
      apiEndpoint: GCS_JSON_ENDPOINT,
      timeout: requestTimeoutMs,
      retryOptions: {
        autoRetry: true,
        maxRetries,
        retryDelayMultiplier: 2,
        maxRetryDelay: 16,
        totalTimeout: Math.ceil(totalRetryMs / 1000),
        // Data files carry a generation precondition; the small writes (connection test,
        // manifest) may be repeated as they are.
        idempotencyStrategy: IdempotencyStrategy.RetryAlways,
      },
    });
    const context: GcsFailureContext = { bucket: destination.bucket, clientEmail: key.clientEmail, timeoutMs: requestTimeoutMs, privateKey: key.privateKey };
    return new GcsBucket(storage.bucket(destination.bucket), context, this.settings);
  }
}

/** A destination refused before any request: every call says why. */
class RefusedBucket implements Bucket {
  constructor(private readonly error: BucketWriteError) {}
  put = () => Promise.reject(this.error);
  upload = () => Promise.reject(this.error);
  exists = () => Promise.reject(this.error);
  close(): void {}
}

interface ObjectFacts {
  readonly generation: string;
  readonly size: number;
  readonly crc32c: string | null;
}

interface SendOptions extends ObjectOptions {
  readonly resumable: boolean;
  /** `0`: only if no object exists; a generation: only over that object. */
  readonly ifGenerationMatch?: number | string;
}

class GcsBucket implements Bucket {
  constructor(
    private readonly bucket: StorageBucket,
    private readonly context: GcsFailureContext,
    private readonly settings: Required<GcsBucketWriterOptions>,
  ) {}

  async put(key: string, body: string | Uint8Array, options: ObjectOptions): Promise<void> {
    const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
    if (bytes.byteLength > this.settings.maxObjectBytes) throw this.tooLarge();
    try {
      // A simple upload is one request the client does not repeat: small enough to repeat here.
      await this.retrying(() => this.send(this.bucket.file(key), [bytes], { ...options, resumable: false }));
    } catch (error) {
      throw toGcsWriteError(error, this.context);
    }
  }

  async upload(key: string, body: AsyncIterable<Uint8Array>, options: ObjectOptions): Promise<{ readonly bytes: number }> {
    const file = this.bucket.file(key);
    const source = new MeteredSource(body, this.settings.maxObjectBytes, () => this.tooLarge());
    let leftover: ObjectFacts | null | "unknown";
    try {
      leftover = await this.factsOf(file, { unknownWhenDenied: true });
    } catch (error) {
      throw toGcsWriteError(error, this.context);
    }
    try {
      if (leftover !== null && leftover !== "unknown") return await this.settle(file, source, leftover, options);
      await this.send(file, source.chunks(), { ...options, resumable: true, ifGenerationMatch: 0 });
      return { bytes: source.bytes };
    } catch (error) {
      // The body's own failure (e.g. the database behind it) is not the destination's.
      if (source.failure !== undefined) throw source.failure instanceof Error ? source.failure : new Error("The upload's source failed");
      if (statusOf(error) === 412) {
        throw new BucketWriteError(
          leftover === "unknown"
            ? `"${key}" is already in the bucket (left by an earlier attempt) and is never overwritten blindly: the service account needs storage.objects.get (e.g. the Storage Object User role) to check it, or delete the object.`
            : `"${key}" was written by someone else while this export wrote it; it is left as it is.`,
          { cause: error },
        );
      }
      throw toGcsWriteError(error, this.context);
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await this.factsOf(this.bucket.file(key), { unknownWhenDenied: false })) !== null;
    } catch (error) {
      throw toGcsWriteError(error, this.context);
    }
  }

  close(): void {}

  /**
   * An earlier attempt left an object at the key: the body goes to a temporary file first. The
   * same bytes are left as they are; other bytes replace that very generation.
   */
  private async settle(file: File, source: MeteredSource, leftover: ObjectFacts, options: ObjectOptions): Promise<{ readonly bytes: number }> {
    const directory = await mkdtemp(join(this.settings.spoolDirectory, "lifecycle-gcs-"));
    try {
      const spool = join(directory, "body");
      const crc = new CRC32C();
      async function* hashed() {
        for await (const chunk of source.chunks()) {
          crc.update(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          yield chunk;
        }
      }
      await pipeline(Readable.from(hashed()), createWriteStream(spool));
      if (source.bytes === leftover.size && crc.toString() === leftover.crc32c) return { bytes: source.bytes };
      await this.send(file, createReadStream(spool), { ...options, resumable: true, ifGenerationMatch: leftover.generation });
      return { bytes: source.bytes };
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /** The object's generation, size and checksum; null when there is none; "unknown" when reading it is denied and that is allowed. */
  private async factsOf(file: File, { unknownWhenDenied }: { unknownWhenDenied: boolean }): Promise<ObjectFacts | null | "unknown"> {
    try {
      const [metadata] = await this.withTimeout(file.getMetadata());
      return { generation: String(metadata.generation), size: Number(metadata.size), crc32c: metadata.crc32c ?? null };
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return null;
      if (status === 403 && unknownWhenDenied) return "unknown";
      throw error;
    }
  }

  /** Streams `source` into one object; a call making no progress for the timeout is abandoned. */
  private async send(file: File, source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, options: SendOptions): Promise<void> {
    const stream = file.createWriteStream({
      resumable: options.resumable,
      ...(options.resumable ? { chunkSize: this.settings.chunkBytes } : {}),
      contentType: options.contentType,
      metadata: options.contentEncoding ? { contentEncoding: options.contentEncoding } : {},
      ...(options.ifGenerationMatch !== undefined ? { preconditionOpts: { ifGenerationMatch: options.ifGenerationMatch } } : {}),
      validation: "crc32c",
      timeout: this.settings.requestTimeoutMs,
    });
    let timer: NodeJS.Timeout | undefined;
    const stall = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stream.destroy(new GcsTimeout("no progress")), this.settings.requestTimeoutMs);
    };
    stream.on("progress", stall);
    async function* watched() {
      for await (const chunk of source) {
        stall();
        yield chunk;
      }
      stall();
    }
    stall();
    try {
      await pipeline(Readable.from(watched()), stream);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `call` again after a transient failure (429, 5xx, network, timeout), with exponential back-off, within the retry budget. */
  private async retrying(call: () => Promise<void>): Promise<void> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const delay = Math.min(1000 * 2 ** attempt, 16_000);
        const spent = Date.now() - started + delay;
        if (attempt >= this.settings.maxRetries || spent > this.settings.totalRetryMs || !isTransient(error)) throw error;
        await sleep(delay);
      }
    }
  }

  private async withTimeout<T>(call: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new GcsTimeout("no answer")), this.settings.requestTimeoutMs);
    });
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private tooLarge(): BucketWriteError {
    return new BucketWriteError(`The file is larger than the ${this.settings.maxObjectBytes}-byte limit per object.`);
  }
}

const TRANSIENT_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EAI_AGAIN", "EPIPE", "ENETUNREACH", "EHOSTUNREACH"]);

function isTransient(error: unknown): boolean {
  if (error instanceof GcsTimeout) return true;
  const status = statusOf(error);
  if (status !== undefined) return status === 408 || status === 429 || status >= 500;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && TRANSIENT_CODES.has(code);
}
