import { MeteredSource } from "../system/metered-source.js";
import type { LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { endpointOriginProblem } from "../../core/data-exports/endpoint-origin.js";
import { BucketWriteError, type Bucket, type BucketDestination, type BucketWriter, type ObjectOptions } from "../../core/ports/bucket-writer.js";
import { toBucketWriteError, type FailureContext } from "./bucket-write-errors.js";
import { destinationAgents, type DestinationAgents } from "./destination-agents.js";

export interface S3BucketWriterOptions {
  /** ALLOW_PRIVATE_DESTINATIONS: loopback/private addresses and plain http:// endpoints (local testing only). */
  readonly allowPrivateDestinations: boolean;
  /** Longest silence on a connection, and longest whole call for small requests (put, exists). Default 60 s. */
  readonly requestTimeoutMs?: number;
  /** Longest wait for a TCP/TLS connection. Default 10 s. */
  readonly connectionTimeoutMs?: number;
  /** Largest object written; a longer upload is aborted. Default 5 GiB. */
  readonly maxObjectBytes?: number;
  /** Resolves host names (default: the system resolver); every answer is still checked. */
  readonly lookup?: LookupFunction;
}

export const GCS_XML_ENDPOINT = "https://storage.googleapis.com";
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECTION_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_OBJECT_BYTES = 5 * 1024 ** 3;
/** Parts of a multipart upload: two in flight, so memory stays near 2-3 x 8 MiB whatever the size. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * Writes to Amazon S3 (virtual-hosted, region required), any S3-compatible endpoint (path-style)
 * and Google Cloud Storage with HMAC keys (its XML API at storage.googleapis.com, region `auto`,
 * path-style), all through @aws-sdk/client-s3.
 *
 * Connections go through agents that refuse private and reserved addresses at connect time (see
 * destination-agents.ts) unless private destinations are allowed; redirects are never followed.
 */
export class S3BucketWriter implements BucketWriter {
  private readonly requestTimeoutMs: number;
  private readonly connectionTimeoutMs: number;
  private readonly maxObjectBytes: number;

  constructor(private readonly options: S3BucketWriterOptions) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.connectionTimeoutMs = options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS;
    this.maxObjectBytes = options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
  }

  open(destination: BucketDestination): Bucket {
    const target = resolveTarget(destination, this.options.allowPrivateDestinations);
    const context: FailureContext = {
      bucket: destination.bucket,
      host: target.host,
      region: destination.region,
      timeoutMs: this.requestTimeoutMs,
      secretAccessKey: destination.secretAccessKey,
    };
    if ("problem" in target) return new RefusedBucket(new BucketWriteError(target.problem));
    const agents = destinationAgents({
      allowPrivate: this.options.allowPrivateDestinations,
      ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
    });
    const client = new S3Client({
      ...target.config,
      credentials: { accessKeyId: destination.accessKeyId, secretAccessKey: destination.secretAccessKey },
      maxAttempts: 3,
      followRegionRedirects: false,
      requestHandler: new NodeHttpHandler({
        httpAgent: agents.httpAgent,
        httpsAgent: agents.httpsAgent,
        connectionTimeout: this.connectionTimeoutMs,
        socketTimeout: this.requestTimeoutMs,
      }),
    });
    return new S3Bucket(client, agents, destination.bucket, context, this.maxObjectBytes);
  }
}

type Target = { readonly host: string; readonly config: S3ClientConfig } | { readonly host: string; readonly problem: string };

/** Client settings per kind of destination, or why the destination cannot be used. */
function resolveTarget(destination: BucketDestination, allowPrivate: boolean): Target {
  // Services other than Amazon's often lack the newer default checksums (aws-chunked trailers).
  const checksumsWhenRequired = { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } as const;
  if (destination.provider === "gcs") {
    const host = new URL(GCS_XML_ENDPOINT).host;
    if (destination.endpoint !== null) return { host, problem: "An endpoint cannot be given for gcs." };
    return { host, config: { endpoint: GCS_XML_ENDPOINT, region: "auto", forcePathStyle: true, ...checksumsWhenRequired } };
  }
  if (destination.endpoint === null) {
    const region = destination.region;
    const host = `s3.${region}.amazonaws.com`;
    if (region === "auto" || !/^[a-z]{2}(-[a-z0-9]+)+$/.test(region)) {
      return { host, problem: `"${region}" is not an Amazon S3 region: give the bucket's region, e.g. eu-west-1.` };
    }
    return { host, config: { region, forcePathStyle: false } };
  }
  const problem = endpointOriginProblem(destination.endpoint, allowPrivate);
  if (problem !== null) return { host: destination.endpoint, problem: `The ${problem}.` };
  const url = new URL(destination.endpoint);
  return { host: url.host, config: { endpoint: url.origin, region: destination.region || "auto", forcePathStyle: true, ...checksumsWhenRequired } };
}

/** A destination refused before any connection (bad endpoint, region): every call says why. */
class RefusedBucket implements Bucket {
  constructor(private readonly error: BucketWriteError) {}
  put = () => Promise.reject(this.error);
  upload = () => Promise.reject(this.error);
  exists = () => Promise.reject(this.error);
  close(): void {}
}

class S3Bucket implements Bucket {
  constructor(
    private readonly client: S3Client,
    private readonly agents: DestinationAgents,
    private readonly bucket: string,
    private readonly context: FailureContext,
    private readonly maxObjectBytes: number,
  ) {}

  async put(key: string, body: string | Uint8Array, options: ObjectOptions): Promise<void> {
    const bytes = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    if (bytes > this.maxObjectBytes) throw this.tooLarge();
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: bytes, ...objectHeaders(options) }), {
        abortSignal: AbortSignal.timeout(this.context.timeoutMs),
      });
    } catch (error) {
      throw toBucketWriteError(error, this.context);
    }
  }

  /**
   * Commit semantics without a visible temporary object: S3, GCS and s3rver only make an object
   * visible when its PutObject has been received whole or its multipart upload is completed, so
   * the multipart upload is the temporary name and CompleteMultipartUpload the commit. A failure
   * aborts the multipart upload (lib-storage) and nothing ever appears at `key`. A copy from a
   * visible temporary key would need GetObject and DeleteObject permissions besides PutObject,
   * write every byte twice, stop at 5 GiB (CopyObject's limit) and leave orphans a crash could not
   * clean up in the customer's listing; an interrupted multipart upload stays invisible (a bucket
   * lifecycle rule "abort incomplete multipart uploads" removes its parts).
   */
  async upload(key: string, body: AsyncIterable<Uint8Array>, options: ObjectOptions): Promise<{ readonly bytes: number }> {
    const source = new MeteredSource(body, this.maxObjectBytes, () => this.tooLarge());
    const readable = Readable.from(source.chunks());
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: readable, ...objectHeaders(options) },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The body's own failure (e.g. the database behind it) is not the destination's.
      if (source.failure !== undefined)
        throw source.failure instanceof Error ? source.failure : new Error(typeof source.failure === "string" ? source.failure : "The upload's source failed");
      throw toBucketWriteError(error, this.context);
    } finally {
      readable.destroy();
    }
    return { bytes: source.bytes };
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }), {
        abortSignal: AbortSignal.timeout(this.context.timeoutMs),
      });
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw toBucketWriteError(error, this.context);
    }
  }

  close(): void {
    this.client.destroy();
    this.agents.httpAgent.destroy();
    this.agents.httpsAgent.destroy();
  }

  private tooLarge(): BucketWriteError {
    return new BucketWriteError(`The file is larger than the ${this.maxObjectBytes}-byte limit per object.`);
  }
}

function objectHeaders(options: ObjectOptions) {
  return { ContentType: options.contentType, ...(options.contentEncoding ? { ContentEncoding: options.contentEncoding } : {}) };
}
