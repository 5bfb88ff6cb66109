import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { openGcsObject } from "../../adapters/gcs/gcs-object-source.js";
import { openS3Object } from "../../adapters/s3/s3-object-source.js";
import { ObjectReadError, type OpenObject } from "../../core/ports/object-source.js";
import { CliError } from "./cli-error.js";

/** Where an import's CSV comes from: a local file, or an object of an S3 or GCS bucket. */
export interface CsvSource {
  /** The file name recorded on the import. */
  readonly name: string;
  /** The local path, when it is a local file (its records are counted for the progress bar). */
  readonly path: string | null;
  /** Bytes, when known (a bucket object's records are estimated from the bytes read). */
  readonly size: number | null;
  read(): AsyncIterable<Uint8Array>;
}

export interface ObjectOpeners {
  readonly s3: OpenObject;
  readonly gs: OpenObject;
}

const BUCKET_URL = /^(s3|gs):\/\/([^/]+)\/(.+)$/;

/**
 * `FILE` as given to import-subscribers: `s3://bucket/key`, `gs://bucket/key`, or a local path.
 * A missing object or a denied read is a CliError here, before anything is imported.
 */
export async function openCsvSource(location: string, openers: ObjectOpeners = { s3: (b, k) => openS3Object(b, k), gs: openGcsObject }): Promise<CsvSource> {
  if (/^(s3|gs):\/\//.test(location)) {
    const match = BUCKET_URL.exec(location);
    if (!match) throw new CliError(`${location}: give the object as s3://bucket/key or gs://bucket/key`);
    const [, scheme, bucket, key] = match as unknown as [string, "s3" | "gs", string, string];
    // The AWS SDK's multi-line notice about Node 20 would break the command's one-line errors.
    process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true";
    try {
      const object = await openers[scheme](bucket, key);
      return { name: basename(key), path: null, size: object.size, read: () => object.read() };
    } catch (error) {
      if (error instanceof ObjectReadError) throw new CliError(error.message);
      throw error;
    }
  }
  try {
    const stats = statSync(location);
    if (!stats.isFile()) throw new Error("not a file");
    return { name: basename(location), path: location, size: stats.size, read: () => createReadStream(location) as AsyncIterable<Buffer> };
  } catch (error) {
    throw new CliError(`cannot read ${location}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
