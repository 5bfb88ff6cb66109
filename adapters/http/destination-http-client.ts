import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import {
  DEFAULT_HTTP_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  HttpRequestError,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
} from "../../core/ports/http-client.js";
import { destinationAgents, REFUSED_ADDRESS, type DestinationAgents } from "../s3/destination-agents.js";

/**
 * HttpClient to destinations customers name (webhook URLs): every socket goes through the
 * destination agents, so unless private destinations are allowed a host that resolves to a
 * loopback, private, link-local or reserved address is refused when it connects. A deadline on
 * the whole exchange, the body cut off at the cap, redirects handed back instead of followed.
 */
export class DestinationHttpClient implements HttpClient {
  private readonly agents: DestinationAgents;

  constructor(options: { readonly allowPrivate: boolean }) {
    this.agents = destinationAgents({ allowPrivate: options.allowPrivate });
  }

  send(request: HttpRequest): Promise<HttpResponse> {
    const url = new URL(request.url);
    const cap = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    return new Promise<HttpResponse>((resolve, reject) => {
      const deadline = setTimeout(() => fail(`${url.origin} did not answer in time`), request.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS);
      const fail = (reason: string) => {
        clearTimeout(deadline);
        outgoing.destroy();
        reject(new HttpRequestError(reason));
      };
      const onResponse = (response: IncomingMessage) => {
        const parts: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > cap) fail(`The response of ${url.origin} is larger than ${cap} bytes`);
          else parts.push(chunk);
        });
        response.on("end", () => {
          clearTimeout(deadline);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(parts).toString("utf8") });
        });
        response.on("error", (error) => fail(describe(error, url)));
      };
      const options = { method: request.method, headers: { ...(request.headers ?? {}) } };
      const outgoing: ClientRequest =
        url.protocol === "https:"
          ? httpsRequest(url, { ...options, agent: this.agents.httpsAgent }, onResponse)
          : httpRequest(url, { ...options, agent: this.agents.httpAgent }, onResponse);
      outgoing.on("error", (error) => {
        clearTimeout(deadline);
        reject(new HttpRequestError(describe(error, url)));
      });
      if (request.body !== undefined) outgoing.write(request.body);
      outgoing.end();
    });
  }
}

/** A readable reason without the URL's path or query (which may hold credentials). */
function describe(error: Error, url: URL): string {
  if (REFUSED_ADDRESS.test(error.message)) return `Could not reach ${url.origin}: its address is private or reserved, and only public destinations are called`;
  return `Could not reach ${url.origin}: ${error.message}`;
}
