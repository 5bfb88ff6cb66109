export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

export interface RequestOptions {
  readonly key?: string;
  /** Send the key as `x-api-key` instead of `Authorization: Bearer`. */
  readonly viaHeader?: boolean;
  readonly companyId?: string;
  readonly body?: unknown;
  /** Sent as-is (for malformed JSON). */
  readonly rawBody?: string;
  /** More request headers (Idempotency-Key...). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A request as the official client sends it: JSON content type on every call. */
export async function call(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.key) {
    if (options.viaHeader) headers["x-api-key"] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  if (options.companyId) headers["x-company-id"] = options.companyId;
  Object.assign(headers, options.headers);
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
