import {
  DEFAULT_HTTP_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  HttpRequestError,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
} from "../../core/ports/http-client.js";

/**
 * HttpClient over Node's fetch (undici): a deadline on the whole exchange, the body read in
 * pieces and cut off at the cap, redirects handed back instead of followed.
 */
export class FetchHttpClient implements HttpClient {
  async send(request: HttpRequest): Promise<HttpResponse> {
    const signal = AbortSignal.timeout(request.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS);
    const cap = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers ?? {},
        ...(request.body !== undefined ? { body: request.body } : {}),
        redirect: "manual",
        signal,
      });
    } catch (error) {
      throw new HttpRequestError(describe(error, request.url));
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const declared = Number(headers["content-length"]);
    if (Number.isFinite(declared) && declared > cap) {
      await response.body?.cancel().catch(() => undefined);
      throw new HttpRequestError(`The response of ${originOf(request.url)} is larger than ${cap} bytes`);
    }
    return { status: response.status, headers, body: await readCapped(response, cap, request.url) };
  }
}

async function readCapped(response: Response, cap: number, url: string): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = (await reader.read()) as { done: true; value?: undefined } | { done: false; value: Uint8Array };
      if (done) break;
      size += value.byteLength;
      if (size > cap) {
        await reader.cancel().catch(() => undefined);
        throw new HttpRequestError(`The response of ${originOf(url)} is larger than ${cap} bytes`);
      }
      parts.push(value);
    }
  } catch (error) {
    if (error instanceof HttpRequestError) throw error;
    throw new HttpRequestError(describe(error, url));
  }
  return Buffer.concat(parts).toString("utf8");
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return "the server";
  }
};

/** A readable reason without the URL's query (which may hold credentials). */
function describe(error: unknown, url: string): string {
  const origin = originOf(url);
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return `${origin} did not answer in time`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  return `Could not reach ${origin}: ${cause}`;
}
