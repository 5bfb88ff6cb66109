import { createHmac, timingSafeEqual } from "node:crypto";
import type { Provider } from "../../core/integrations/model.js";
import type { SignatureVerdict, WebhookHeaders, WebhookSignatures } from "../../core/integrations/ports.js";

/** How far a signed timestamp may be from now, either way (replays older than this are refused). */
export const REPLAY_WINDOW_SECONDS = 5 * 60;

const INVALID = "Invalid webhook signature";
const STALE = `The webhook timestamp is outside the ${REPLAY_WINDOW_SECONDS / 60}-minute replay window`;
const refuse = (reason: string): SignatureVerdict => ({ valid: false, reason });
const VALID: SignatureVerdict = { valid: true };

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const hmac = (key: Buffer | string, text: Uint8Array) => createHmac("sha256", key).update(text).digest();

/** A signed Unix-seconds timestamp within the replay window of now. */
function fresh(timestamp: string | undefined, now: Date): boolean {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(now.getTime() / 1000 - Number(timestamp)) <= REPLAY_WINDOW_SECONDS;
}

/**
 * The Standard Webhooks key: a `whsec_` secret is base64 after its prefix; any other secret
 * (Polar's, Whop's) is used as its UTF-8 bytes, as their SDKs hand it to the Standard Webhooks library.
 */
export const standardWebhooksKey = (secret: string): Buffer =>
  secret.startsWith("whsec_") ? Buffer.from(secret.slice("whsec_".length), "base64") : Buffer.from(secret, "utf8");

/** Standard Webhooks (and Svix, the same scheme under `svix-` headers): v1,<base64 HMAC-SHA256 of id.timestamp.body>, several allowed. */
function standardWebhooks(prefix: "webhook" | "svix", secret: string, headers: WebhookHeaders, body: Uint8Array, now: Date): SignatureVerdict {
  const id = headers[`${prefix}-id`];
  const timestamp = headers[`${prefix}-timestamp`];
  const signatures = headers[`${prefix}-signature`];
  if (!id || !timestamp || !signatures) return refuse(`Missing ${prefix}-id, ${prefix}-timestamp or ${prefix}-signature header`);
  if (!fresh(timestamp, now)) return refuse(STALE);
  const expected = hmac(standardWebhooksKey(secret), Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body])).toString("base64");
  const matches = signatures
    .split(" ")
    .map((entry) => entry.split(",", 2))
    .some(([version, signature]) => version === "v1" && signature !== undefined && sameText(signature, expected));
  return matches ? VALID : refuse(INVALID);
}

/** Paddle-Signature: ts=<unix>;h1=<hex HMAC-SHA256 of "ts:body">, h1 possibly repeated during a secret rotation. */
function paddle(secret: string, headers: WebhookHeaders, body: Uint8Array, now: Date): SignatureVerdict {
  const header = headers["paddle-signature"];
  if (!header) return refuse("Missing Paddle-Signature header");
  const parts = header.split(";").map((part) => part.trim().split("=", 2) as [string, string | undefined]);
  const timestamp = parts.find(([key]) => key === "ts")?.[1];
  if (!fresh(timestamp, now)) return refuse(timestamp ? STALE : INVALID);
  const expected = hmac(secret, Buffer.concat([Buffer.from(`${timestamp}:`), body])).toString("hex");
  return parts.some(([key, value]) => key === "h1" && value !== undefined && sameText(value.toLowerCase(), expected)) ? VALID : refuse(INVALID);
}

/** creem-signature: <hex HMAC-SHA256 of the body> (Creem signs no timestamp). */
function creem(secret: string, headers: WebhookHeaders, body: Uint8Array): SignatureVerdict {
  const header = headers["creem-signature"];
  if (!header) return refuse("Missing creem-signature header");
  return sameText(header.trim().toLowerCase(), hmac(secret, body).toString("hex")) ? VALID : refuse(INVALID);
}

/** X-Affonso-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">. */
function affonso(secret: string, headers: WebhookHeaders, body: Uint8Array, now: Date): SignatureVerdict {
  const header = headers["x-affonso-signature"];
  if (!header) return refuse("Missing X-Affonso-Signature header");
  const parts = header.split(",").map((part) => part.trim().split("=", 2) as [string, string | undefined]);
  const timestamp = parts.find(([key]) => key === "t")?.[1];
  if (!fresh(timestamp, now)) return refuse(timestamp ? STALE : INVALID);
  const expected = hmac(secret, Buffer.concat([Buffer.from(`${timestamp}.`), body])).toString("hex");
  return parts.some(([key, value]) => key === "v1" && value !== undefined && sameText(value.toLowerCase(), expected)) ? VALID : refuse(INVALID);
}

/** Chargebee: HTTP basic authentication with the webhook's username:password. */
function basicAuth(secret: string, headers: WebhookHeaders): SignatureVerdict {
  const header = headers.authorization;
  if (!header?.toLowerCase().startsWith("basic ")) return refuse("Missing basic authentication");
  const given = Buffer.from(header.slice("basic ".length).trim(), "base64").toString("utf8");
  return sameText(given, secret) ? VALID : refuse("Invalid basic authentication");
}

/** PostHog's webhook destination sends the headers it is given: Authorization: Bearer <secret>. */
function bearer(secret: string, headers: WebhookHeaders): SignatureVerdict {
  const header = headers.authorization;
  if (!header?.toLowerCase().startsWith("bearer ")) return refuse("Missing Authorization: Bearer header");
  return sameText(header.slice("bearer ".length).trim(), secret) ? VALID : refuse("Invalid bearer secret");
}

/** Each provider's own documented scheme, compared in constant time. */
export class ProviderWebhookSignatures implements WebhookSignatures {
  verify(provider: Provider, secret: string, headers: WebhookHeaders, body: Uint8Array, now: Date): SignatureVerdict {
    if (secret === "") return refuse(INVALID);
    switch (provider) {
      case "polar":
      case "dodo":
      case "whop":
        return standardWebhooks("webhook", secret, headers, body, now);
      case "clerk":
        return standardWebhooks("svix", secret, headers, body, now);
      case "paddle":
        return paddle(secret, headers, body, now);
      case "creem":
        return creem(secret, headers, body);
      case "affonso":
        return affonso(secret, headers, body, now);
      case "chargebee":
        return basicAuth(secret, headers);
      case "posthog":
        return bearer(secret, headers);
    }
  }
}
