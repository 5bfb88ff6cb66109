import { token } from "../shared/token.js";

/**
 * Outbound HTTP to third-party APIs (migration sources). A minimal fetch-like exchange: every
 * call has a time limit and a cap on the response size, and redirects are never followed (a
 * 3xx comes back as it is), so a response cannot lead the server somewhere it was not sent.
 */
export interface HttpRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The whole exchange, body included (default 30 s). */
  readonly timeoutMs?: number;
  /** Largest response body read (default 10 MiB); a larger one fails the call. */
  readonly maxResponseBytes?: number;
}

export interface HttpResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The call got no complete response: network failure, time limit, or a body over the cap. */
export class HttpRequestError extends Error {
  override readonly name = "HttpRequestError";
}

export interface HttpClient {
  /** Resolves with any status; rejects with HttpRequestError when no complete response came. */
  send(request: HttpRequest): Promise<HttpResponse>;
}
export const HttpClient = token<HttpClient>("lifecycle.HttpClient");

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * The HttpClient for URLs customers give (sequence webhook steps): private and reserved
 * addresses are refused when connecting, unless ALLOW_PRIVATE_DESTINATIONS is set.
 */
export const DestinationHttpClient = token<HttpClient>("lifecycle.DestinationHttpClient");
