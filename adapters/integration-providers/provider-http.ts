import { badRequest } from "../../core/shared/errors.js";
import { fail, type Result } from "../../core/shared/result.js";
import { ProviderRefused, ProviderUnavailable } from "../../core/integrations/ports.js";
import { HttpRequestError, type HttpClient, type HttpRequest } from "../../core/ports/http-client.js";

/** Provider calls are short reads: a tight deadline, a modest cap. */
const TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export interface ProviderResponse {
  readonly status: number;
  readonly json: unknown;
}

/** One call to a provider's API; network failures become ProviderUnavailable. */
export async function callProvider(http: HttpClient, request: HttpRequest): Promise<ProviderResponse> {
  try {
    const response = await http.send({
      timeoutMs: TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      ...request,
      headers: { accept: "application/json", ...request.headers },
    });
    let json: unknown = null;
    try {
      json = response.body === "" ? null : JSON.parse(response.body);
    } catch {
      json = null;
    }
    return { status: response.status, json };
  } catch (error) {
    if (error instanceof HttpRequestError) throw new ProviderUnavailable(error.message);
    throw error;
  }
}

/** The answer to a credential check that did not succeed (spec: 400 invalid credential, 400 missing read permission). */
export function refusedCheck<A>(name: string, status: number, permission: string): Result<A> {
  if (status === 401) return fail(badRequest(`${name} refused the credentials: check the API key`, { code: "invalid_credentials" }));
  if (status === 403) return fail(badRequest(`The ${name} API key is missing read permission (${permission})`, { code: "missing_permission" }));
  if (status === 404) return fail(badRequest(`${name} does not know this account: check the account ID and the API key`, { code: "invalid_credentials" }));
  return fail(badRequest(`${name} could not check the credentials (HTTP ${status}); try again shortly`, { code: "provider_unavailable" }));
}

/** A credential check that could not reach the provider. */
export const unreachable = <A>(name: string, reason: string): Result<A> =>
  fail(badRequest(`${name} could not be reached to check the credentials (${reason}); try again shortly`, { code: "provider_unavailable" }));

/** A sync page that did not succeed: refused credentials fail the sync, anything else is retried. */
export function pageFailure(name: string, status: number): Error {
  if (status === 401 || status === 403) return new ProviderRefused(`${name} refused the stored credentials (HTTP ${status}): connect the integration again`);
  return new ProviderUnavailable(`${name} answered HTTP ${status}`);
}

export const isOk = (status: number): boolean => status >= 200 && status < 300;
