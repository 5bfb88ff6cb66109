import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExecutionContext } from "ava";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { SignatureV4 } from "@smithy/signature-v4";
import S3rver from "s3rver";

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: an S3-compatible endpoint (path-style). */
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Reads an object back through the S3 protocol; rejects when there is none. */
  getObject(bucket: string, key: string): Promise<Buffer>;
  /** Every key in the bucket (under `prefix`), sorted. */
  listKeys(bucket: string, prefix?: string): Promise<string[]>;
}

/** s3rver's fixed credentials. */
const ACCESS_KEY_ID = "S3RVER";
const SECRET_ACCESS_KEY = "S3RVER";
const REGION = "us-east-1";

/**
 * A real S3 protocol server (s3rver) on loopback with `buckets` created, stopped and its files
 * removed when the test ends. Destinations pointing at it need ALLOW_PRIVATE_DESTINATIONS.
 *
 * s3rver checks only the access key ID of SigV4 requests, so the server in front of it checks the
 * signature too: a wrong secret gets SignatureDoesNotMatch, as from Amazon S3.
 */
export async function startS3Server(t: ExecutionContext, buckets: string[]): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), "s3rver-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: buckets.map((name) => ({ name, configs: [] })) });
  await s3rver.configureBuckets();
  const handle = s3rver.getMiddleware();
  const server = createServer((request, response) => {
    void signatureMismatch(request).then(
      (mismatch) => (mismatch ? refuse(request, response) : handle(request, response)),
      () => refuse(request, response),
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new S3Client({
    endpoint,
    region: REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  t.teardown(async () => {
    client.destroy();
    // Keep-alive sockets of the clients under test would hold close() open.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(directory, { recursive: true, force: true });
  });

  return {
    endpoint,
    region: REGION,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    async getObject(bucket, key) {
      const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await response.Body!.transformToByteArray());
    },
    async listKeys(bucket, prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
  };
}

/** node:crypto behind the hash interface SignatureV4 takes. */
class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key =
      typeof secret === "string" || secret === undefined
        ? secret
        : Buffer.from(secret instanceof ArrayBuffer ? new Uint8Array(secret) : new Uint8Array(secret.buffer, secret.byteOffset, secret.byteLength));
    this.hash = key === undefined ? createHash("sha256") : createHmac("sha256", key);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(
      typeof data === "string" ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    );
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** Whether a SigV4 header-signed request for s3rver's key was signed with another secret. */
async function signatureMismatch(request: IncomingMessage): Promise<boolean> {
  const match = AUTHORIZATION.exec(request.headers.authorization ?? "");
  if (!match) return false;
  const [, accessKeyId, , region, signedHeaders, signature] = match as unknown as [string, string, string, string, string, string];
  if (accessKeyId !== ACCESS_KEY_ID) return false; // s3rver answers InvalidAccessKeyId
  const url = new URL(request.url ?? "/", "http://s3rver");
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(";")) headers[name] = String(request.headers[name] ?? "");
  const signer = new SignatureV4({
    service: "s3",
    region,
    credentials: { accessKeyId, secretAccessKey: SECRET_ACCESS_KEY },
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const amzDate = headers["x-amz-date"] ?? "";
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`);
  const signed = await signer.sign(
    { method: request.method ?? "GET", protocol: "http:", hostname: String(request.headers.host), path: url.pathname, query, headers },
    { signingDate },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers["authorization"]))?.[1];
  return expected !== signature;
}

function refuse(request: IncomingMessage, response: ServerResponse): void {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided. Check your key and signing method.</Message></Error>';
  // Read the body first: answering mid-upload would reset the connection instead.
  request.resume();
  request.once("end", () => {
    response.writeHead(403, { "Content-Type": "application/xml" });
    response.end(request.method === "HEAD" ? undefined : body);
  });
}
