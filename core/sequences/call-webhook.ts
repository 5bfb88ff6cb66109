import { HttpRequestError, type HttpClient, type HttpRequest } from "../ports/http-client.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { Enrollment } from "./enrollment.js";
import { fillReferences, fillReferencesDeep, fillText } from "./merge-values.js";
import type { Sequence, SequenceNode } from "./model.js";

/** A webhook step waits this long for the whole answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The largest answer read (a larger one is an error). */
export const WEBHOOK_MAX_RESPONSE_BYTES = 1024 * 1024;

export type WebhookOutcome = { readonly ok: true; readonly status: number; readonly result: unknown } | { readonly ok: false; readonly reason: string };

/** The JSON sent when the node gives no body: who, from which sequence, and the trigger event. */
function defaultBody(sequence: Sequence, enrollment: Enrollment, contact: TaggedSubscriber): string {
  return JSON.stringify({
    sequenceId: sequence.id,
    enrollmentId: enrollment.id,
    subscriber: {
      id: contact.id,
      email: contact.email,
      firstName: contact.firstName,
      lastName: contact.lastName,
      tags: contact.tags,
      customAttributes: contact.customAttributes,
    },
    event: enrollment.context.event ?? null,
  });
}

/** The node's body with its `{{...}}` references filled: inside JSON values when it is JSON, as text otherwise. */
function filledBody(body: string, values: Readonly<Record<string, unknown>>): string {
  try {
    return JSON.stringify(fillReferencesDeep(JSON.parse(body), values));
  } catch {
    return String(fillReferences(body, values));
  }
}

/**
 * Runs an `action_webhook` node: calls its URL through the destination client (public addresses
 * only, unless private destinations are allowed; no redirects followed), with a time limit. A 2xx
 * answer is the result (parsed when JSON); anything else, or no answer, is an error the node's
 * `onError` decides about. The `Idempotency-Key` header is the same when a step runs again.
 */
export class CallWebhook {
  constructor(private readonly http: HttpClient) {}

  execute = async (
    sequence: Sequence,
    node: SequenceNode,
    enrollment: Enrollment,
    contact: TaggedSubscriber,
    values: Readonly<Record<string, unknown>>,
  ): Promise<WebhookOutcome> => {
    const config = node.config;
    const method = (config.method as HttpRequest["method"] | undefined) ?? "POST";
    const carriesBody = method !== "GET" && method !== "DELETE";
    const body = !carriesBody ? undefined : typeof config.body === "string" ? filledBody(config.body, values) : defaultBody(sequence, enrollment, contact);
    const headers: Record<string, string> = {
      "user-agent": "lifecycle-email sequences",
      "idempotency-key": `${enrollment.id}-${enrollment.stepCount + 1}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...((config.headers as Record<string, string> | undefined) ?? {}),
    };
    let url: string;
    try {
      // Values go into the URL encoded, so they cannot change its shape.
      const filled = new URL(fillText(String(config.url), values, encodeURIComponent));
      if (filled.protocol !== new URL(String(config.url)).protocol) throw new TypeError("scheme changed");
      url = filled.toString();
    } catch {
      return { ok: false, reason: "the webhook URL is not a valid URL once its references are filled" };
    }
    try {
      const response = await this.http.send({
        method,
        url,
        headers,
        ...(body !== undefined ? { body } : {}),
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        maxResponseBytes: WEBHOOK_MAX_RESPONSE_BYTES,
      });
      if (response.status < 200 || response.status > 299) return { ok: false, reason: `the webhook answered HTTP ${response.status}` };
      return { ok: true, status: response.status, result: parsed(response.body) };
    } catch (error) {
      if (error instanceof HttpRequestError) return { ok: false, reason: error.message };
      throw error;
    }
  };
}

/** A JSON answer as its value; any other text as it is (null when empty). */
function parsed(body: string): unknown {
  if (body.trim() === "") return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
