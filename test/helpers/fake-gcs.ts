import { generateKeyPairSync, randomBytes, verify, type KeyObject } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { CRC32C } from "@google-cloud/storage";
import nock from "nock";

/**
 * Google Cloud Storage's JSON API and Google's OAuth token endpoint as far as the exports and
 * imports use them, on their documented wire protocol: the token exchange (a JWT bearer
 * assertion signed with the service account's private key, RS256), metadata reads, media
 * downloads, multipart uploads, and resumable uploads (session, chunks answered 308 with
 * `Range`, the last one creating the object), with `ifGenerationMatch` preconditions (412) and
 * the JSON error bodies (`notFound`, `forbidden`, `accountDisabled`, `conditionNotMet`).
 *
 * Google's hosts cannot be reached from here: `interceptGoogle` routes them to the fake with
 * nock, in this process or, through a loopback server (`serveFakeGcs`), in a child process.
 */

export const TOKEN_ORIGIN = "https://oauth2.googleapis.com";
/** Where Google's Node client (gtoken) exchanges a service account's assertion: Google's older token URL. */
export const LEGACY_TOKEN_URL = "https://www.googleapis.com/oauth2/v4/token";
export const STORAGE_ORIGIN = "https://storage.googleapis.com";
/** Every host a service account export may talk to. */
export const GOOGLE_HOSTS = [new URL(TOKEN_ORIGIN).host, new URL(LEGACY_TOKEN_URL).host, new URL(STORAGE_ORIGIN).host];
const TOKEN_URLS = [`${TOKEN_ORIGIN}/token`, LEGACY_TOKEN_URL];

export interface StoredObject {
  readonly body: Buffer;
  readonly generation: string;
  readonly contentType: string | undefined;
  readonly contentEncoding: string | undefined;
  readonly crc32c: string;
}

export interface FakeRequest {
  readonly method: string;
  readonly host: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

export interface FakeResponse {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

interface Session {
  readonly bucket: string;
  readonly name: string;
  readonly metadata: Record<string, unknown>;
  readonly ifGenerationMatch: string | null;
  readonly parts: Buffer[];
  received: number;
}

/** A service account's JSON key file as the Google Cloud console hands it out. */
export function serviceAccountKeyFile(clientEmail = "exporter@acme-data.iam.gserviceaccount.com"): { file: Record<string, string>; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const project = clientEmail.split("@")[1]!.split(".")[0]!;
  return {
    publicKey,
    file: {
      type: "service_account",
      project_id: project,
      private_key_id: randomBytes(20).toString("hex"),
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: clientEmail,
      client_id: "104715398256372938475",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: "https://oauth2.googleapis.com/token",
      auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
      universe_domain: "googleapis.com",
    },
  };
}

const apiError = (status: number, reason: string, message: string): FakeResponse => ({
  status,
  headers: { "content-type": "application/json; charset=UTF-8" },
  body: JSON.stringify({ error: { code: status, message, errors: [{ message, domain: "global", reason }] } }),
});

const json = (status: number, value: unknown, headers: Record<string, string> = {}): FakeResponse => ({
  status,
  headers: { "content-type": "application/json; charset=UTF-8", ...headers },
  body: JSON.stringify(value),
});

const base64url = (text: string) => Buffer.from(text, "base64url");

export class FakeGcs {
  /** Every request, in order (host, method, path without query). */
  readonly requests: Array<{ readonly host: string; readonly method: string; readonly path: string; readonly query: URLSearchParams }> = [];
  /** Access tokens handed out, by the account they were issued to. */
  readonly tokens = new Map<string, string>();
  /** Buckets whose writes are refused (403 `forbidden`), and whose project has billing disabled (403 `accountDisabled`). */
  readonly denied = new Set<string>();
  readonly billingDisabled = new Set<string>();
  /** Requests without a token are served (the CLI's reads through STORAGE_EMULATOR_HOST). */
  allowAnonymous = false;
  private readonly objects = new Map<string, Map<string, StoredObject>>();
  private readonly sessions = new Map<string, Session>();
  private readonly accounts = new Map<string, KeyObject>();
  private generation = 1_700_000_000_000_000;

  constructor(buckets: readonly string[]) {
    for (const bucket of buckets) this.objects.set(bucket, new Map());
  }

  /** Accounts whose assertions the token endpoint accepts, with their public keys. */
  trust(clientEmail: string, publicKey: KeyObject): void {
    this.accounts.set(clientEmail, publicKey);
  }

  keys(bucket: string, prefix = ""): string[] {
    return [...(this.objects.get(bucket)?.keys() ?? [])].filter((key) => key.startsWith(prefix)).sort();
  }

  object(bucket: string, key: string): StoredObject | undefined {
    return this.objects.get(bucket)?.get(key);
  }

  /** Puts an object as if someone else had written it. */
  seed(bucket: string, key: string, body: Buffer, contentType = "text/csv"): StoredObject {
    return this.store(bucket, key, body, { contentType });
  }

  /** Resumable upload sessions opened and not finished. */
  get openSessions(): number {
    return this.sessions.size;
  }

  handle(request: FakeRequest): FakeResponse {
    const url = new URL(request.url, `https://${request.host}`);
    this.requests.push({ host: request.host, method: request.method, path: url.pathname, query: url.searchParams });
    if (TOKEN_URLS.includes(`https://${request.host}${url.pathname}`)) return this.token(request, `https://${request.host}${url.pathname}`);
    if (!this.authorised(request)) return apiError(401, "authError", "Invalid Credentials");
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    if (upload) {
      const bucket = decodeURIComponent(upload[1]!);
      if (request.method === "POST") return this.startUpload(bucket, url.searchParams, request);
      if (request.method === "PUT") return this.continueUpload(url.searchParams.get("upload_id") ?? "", request);
    }
    // The JSON API under /storage/v1; the client drops the prefix when STORAGE_EMULATOR_HOST is set.
    const object = /^(?:\/storage\/v1)?\/b\/([^/]+)\/o\/(.+)$/.exec(url.pathname);
    if (object) {
      const bucket = decodeURIComponent(object[1]!);
      const key = decodeURIComponent(object[2]!);
      const refused = this.refusal(bucket, "read");
      if (refused) return refused;
      const found = this.objects.get(bucket)!.get(key);
      if (request.method === "DELETE") {
        this.objects.get(bucket)!.delete(key);
        return { status: 204 };
      }
      if (!found) return apiError(404, "notFound", `No such object: ${bucket}/${key}`);
      const generation = url.searchParams.get("generation");
      if (generation !== null && generation !== found.generation) return apiError(404, "notFound", `No such object: ${bucket}/${key}#${generation}`);
      if (url.searchParams.get("alt") === "media") {
        return {
          status: 200,
          headers: { "content-type": found.contentType ?? "application/octet-stream", "x-goog-generation": found.generation },
          body: found.body,
        };
      }
      return json(200, this.metadataOf(bucket, key, found));
    }
    return apiError(400, "invalid", `Not served by the fake: ${request.method} ${url.pathname}`);
  }

  /** The OAuth 2.0 JWT bearer grant: the assertion must be signed by a trusted account's key, for Google's token URL. */
  private token(request: FakeRequest, tokenUrl: string): FakeResponse {
    const form = new URLSearchParams(request.body.toString("utf8"));
    const refuse = (description: string) => json(400, { error: "invalid_grant", error_description: description });
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return json(400, { error: "unsupported_grant_type" });
    const [header, payload, signature] = (form.get("assertion") ?? "").split(".");
    if (!header || !payload || !signature) return refuse("Invalid JWT.");
    const claims = JSON.parse(base64url(payload).toString("utf8")) as { iss?: string; aud?: string; scope?: string; exp?: number };
    const publicKey = claims.iss ? this.accounts.get(claims.iss) : undefined;
    if (!publicKey) return refuse("Invalid grant: account not found");
    if (JSON.parse(base64url(header).toString("utf8")).alg !== "RS256") return refuse("Invalid JWT: unsupported algorithm.");
    if (!verify("RSA-SHA256", Buffer.from(`${header}.${payload}`), publicKey, base64url(signature))) return refuse("Invalid JWT Signature.");
    if (claims.aud !== tokenUrl) return refuse("Invalid JWT: audience.");
    if (!claims.scope?.includes("devstorage")) return refuse("Invalid JWT: no storage scope.");
    const token = `ya29.fake-${randomBytes(12).toString("hex")}`;
    this.tokens.set(token, claims.iss!);
    return json(200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
  }

  private authorised(request: FakeRequest): boolean {
    const header = String(request.headers["authorization"] ?? "");
    if (header === "") return this.allowAnonymous;
    return this.tokens.has(header.replace(/^Bearer /, ""));
  }

  private refusal(bucket: string, kind: "read" | "write"): FakeResponse | null {
    if (!this.objects.has(bucket)) return apiError(404, "notFound", "The specified bucket does not exist.");
    if (this.billingDisabled.has(bucket)) return apiError(403, "accountDisabled", "The billing account for the owning project is disabled in state closed");
    if (this.denied.has(bucket)) {
      return apiError(
        403,
        "forbidden",
        `exporter does not have storage.objects.${kind === "read" ? "get" : "create"} access to the Google Cloud Storage object.`,
      );
    }
    return null;
  }

  private preconditionFails(bucket: string, name: string, ifGenerationMatch: string | null): boolean {
    if (ifGenerationMatch === null) return false;
    const existing = this.objects.get(bucket)?.get(name);
    return ifGenerationMatch === "0" ? existing !== undefined : existing?.generation !== ifGenerationMatch;
  }

  private startUpload(bucket: string, query: URLSearchParams, request: FakeRequest): FakeResponse {
    const refused = this.refusal(bucket, "write");
    if (refused) return refused;
    const name = query.get("name") ?? "";
    const ifGenerationMatch = query.get("ifGenerationMatch");
    if (query.get("uploadType") === "multipart") {
      const { metadata, media } = parseMultipart(request);
      const key = name || (typeof metadata["name"] === "string" ? metadata["name"] : "");
      if (this.preconditionFails(bucket, key, ifGenerationMatch)) return conditionNotMet();
      const stored = this.store(bucket, key, media, metadata);
      return json(200, this.metadataOf(bucket, key, stored));
    }
    if (query.get("uploadType") !== "resumable") return apiError(400, "invalid", "uploadType must be multipart or resumable");
    if (this.preconditionFails(bucket, name, ifGenerationMatch)) return conditionNotMet();
    const metadata = request.body.length > 0 ? (JSON.parse(request.body.toString("utf8")) as Record<string, unknown>) : {};
    // The content type travels as a header of the session's start, as in Google's protocol.
    const contentType = request.headers["x-upload-content-type"];
    if (typeof contentType === "string") metadata["contentType"] = contentType;
    const id = randomBytes(16).toString("hex");
    this.sessions.set(id, { bucket, name, metadata, ifGenerationMatch, parts: [], received: 0 });
    const location = `${STORAGE_ORIGIN}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}`;
    return { status: 200, headers: { location, "content-length": "0" } };
  }

  /** A chunk (`Content-Range: bytes A-B/total` or `/*`), the last one (`total` known and reached), or a status query (`bytes * /*`). */
  private continueUpload(id: string, request: FakeRequest): FakeResponse {
    const session = this.sessions.get(id);
    if (!session) return apiError(404, "notFound", "No such upload session.");
    const range = String(request.headers["content-range"] ?? "");
    const match = /^bytes (\*|(\d+)-(\d+|\*))\/(\d+|\*)$/.exec(range);
    if (!match) return apiError(400, "invalid", `Bad Content-Range: ${range}`);
    const [, span, from, , total] = match;
    if (span !== "*") {
      if (Number(from) !== session.received) return apiError(400, "invalid", `Chunk starts at ${from}, expected ${session.received}`);
      session.parts.push(request.body);
      session.received += request.body.length;
    }
    const last = total !== "*" ? session.received === Number(total) : span !== "*" && match[3] === "*";
    if (!last) return { status: 308, headers: session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {} };
    this.sessions.delete(id);
    const refused = this.refusal(session.bucket, "write");
    if (refused) return refused;
    if (this.preconditionFails(session.bucket, session.name, session.ifGenerationMatch)) return conditionNotMet();
    const stored = this.store(session.bucket, session.name, Buffer.concat(session.parts), session.metadata);
    return json(200, this.metadataOf(session.bucket, session.name, stored));
  }

  private store(bucket: string, key: string, body: Buffer, metadata: Record<string, unknown>): StoredObject {
    const crc = new CRC32C();
    crc.update(body);
    const stored: StoredObject = {
      body,
      generation: String((this.generation += 1)),
      contentType: typeof metadata["contentType"] === "string" ? metadata["contentType"] : undefined,
      contentEncoding: typeof metadata["contentEncoding"] === "string" ? metadata["contentEncoding"] : undefined,
      crc32c: crc.toString(),
    };
    this.objects.get(bucket)!.set(key, stored);
    return stored;
  }

  private metadataOf(bucket: string, key: string, stored: StoredObject) {
    return {
      kind: "storage#object",
      id: `${bucket}/${key}/${stored.generation}`,
      name: key,
      bucket,
      generation: stored.generation,
      metageneration: "1",
      contentType: stored.contentType,
      ...(stored.contentEncoding ? { contentEncoding: stored.contentEncoding } : {}),
      size: String(stored.body.length),
      crc32c: stored.crc32c,
      storageClass: "STANDARD",
    };
  }
}

const conditionNotMet = () => apiError(412, "conditionNotMet", "At least one of the pre-conditions you specified did not hold.");

/** `multipart/related`: the JSON metadata part, then the media part. */
function parseMultipart(request: FakeRequest): { metadata: Record<string, unknown>; media: Buffer } {
  const boundary = /boundary="?([^";]+)"?/.exec(String(request.headers["content-type"] ?? ""))?.[1];
  if (!boundary) throw new Error("multipart upload without a boundary");
  const parts: Buffer[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = request.body.indexOf(delimiter);
  while (at !== -1) {
    const next = request.body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    const part = request.body.subarray(at + delimiter.length, next);
    const headerEnd = part.indexOf("\r\n\r\n");
    parts.push(part.subarray(headerEnd + 4, part.length - 2));
    at = next;
  }
  return { metadata: JSON.parse(parts[0]!.toString("utf8")) as Record<string, unknown>, media: parts[1] ?? Buffer.alloc(0) };
}

/** nock hands a reply function the body as text, JSON, or (when it is not UTF-8) hex. */
function bodyOf(body: unknown): Buffer {
  if (body === undefined || body === null || body === "") return Buffer.alloc(0);
  if (typeof body !== "string") return Buffer.from(JSON.stringify(body));
  if (/^(?:[0-9a-f]{2})+$/.test(body)) {
    const bytes = Buffer.from(body, "hex");
    if (!Buffer.from(bytes.toString("utf8"), "utf8").equals(bytes)) return bytes;
  }
  return Buffer.from(body, "utf8");
}

/**
 * Routes Google's token endpoints and storage.googleapis.com to `target` (a fake in this process,
 * or the origin of a loopback server serving one) and refuses every other outside connection.
 * Returns the cleanup.
 */
export function interceptGoogle(target: FakeGcs | string): () => void {
  refusedRequests.length = 0;
  nock.emitter.on("no match", recordRefused);
  nock.disableNetConnect();
  nock.enableNetConnect((host) => host.startsWith("127.0.0.1") || host.startsWith("localhost") || host.startsWith("[::1]"));
  for (const origin of [TOKEN_ORIGIN, new URL(LEGACY_TOKEN_URL).origin, STORAGE_ORIGIN]) {
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      nock(origin)
        .persist()
        .intercept(/.*/, method)
        .query(true)
        .reply(async function (uri, body) {
          const request: FakeRequest = { method, host: new URL(origin).host, url: uri, headers: this.req.headers, body: bodyOf(body) };
          const answer = typeof target === "string" ? await forward(target, request) : target.handle(request);
          return [answer.status, answer.body ?? "", answer.headers ?? {}];
        });
    }
  }
  return () => {
    nock.emitter.off("no match", recordRefused);
    nock.cleanAll();
    nock.enableNetConnect();
  };
}

/** Requests for any other host than Google's and loopback, refused while `interceptGoogle` is on. */
export const refusedRequests: string[] = [];

interface RequestLike {
  readonly hostname?: string;
  readonly host?: string;
  readonly path?: string;
  readonly method?: string;
}

function recordRefused(request: RequestLike, options?: RequestLike): void {
  const host = String(options?.hostname ?? request.hostname ?? request.host ?? "");
  if (!/^(127\.0\.0\.1|localhost|\[?::1\]?)(:\d+)?$/.test(host)) refusedRequests.push(`${request.method ?? "GET"} ${host}${request.path ?? ""}`);
}

async function forward(origin: string, request: FakeRequest): Promise<FakeResponse> {
  const headers: Record<string, string> = { "x-fake-host": request.host };
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !["host", "content-length", "connection", "transfer-encoding"].includes(name)) headers[name] = String(value);
  }
  const response = await fetch(`${origin}${request.url}`, {
    method: request.method,
    headers,
    ...(request.body.length > 0 ? { body: request.body } : {}),
    redirect: "manual",
  });
  const answerHeaders: Record<string, string> = {};
  for (const name of ["content-type", "location", "range", "x-goog-generation"]) {
    const value = response.headers.get(name);
    if (value !== null) answerHeaders[name] = value;
  }
  return { status: response.status, headers: answerHeaders, body: Buffer.from(await response.arrayBuffer()) };
}

/** Serves `fake` on loopback (for child processes, and STORAGE_EMULATOR_HOST); closed when `onClose` runs. */
export async function serveFakeGcs(fake: FakeGcs, onClose: (close: () => Promise<void>) => void): Promise<string> {
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer = fake.handle({
        method: request.method ?? "GET",
        host: String(request.headers["x-fake-host"] ?? new URL(STORAGE_ORIGIN).host),
        url: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  onClose(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
