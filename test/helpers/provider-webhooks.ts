import { createHmac } from "node:crypto";
import type { Provider } from "../../core/integrations/model.js";

/**
 * Signs a webhook body the way each provider documents it, independently of the server's code:
 * what a provider would send. `at` is the signing time (the replay window is checked against it).
 */
export function signWebhook(
  provider: Provider,
  secret: string,
  body: string,
  at: Date,
  id = `msg_${Math.random().toString(36).slice(2, 12)}`,
): Record<string, string> {
  const ts = String(Math.floor(at.getTime() / 1000));
  const hmac = (key: Buffer | string, text: string) => createHmac("sha256", key).update(text).digest();
  switch (provider) {
    case "polar":
    case "whop":
      // Their SDKs hand the secret's UTF-8 bytes to the Standard Webhooks library.
      return { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": `v1,${hmac(Buffer.from(secret), `${id}.${ts}.${body}`).toString("base64")}` };
    case "dodo":
      return {
        "webhook-id": id,
        "webhook-timestamp": ts,
        "webhook-signature": `v1,${hmac(Buffer.from(secret.replace(/^whsec_/, ""), "base64"), `${id}.${ts}.${body}`).toString("base64")}`,
      };
    case "clerk":
      return {
        "svix-id": id,
        "svix-timestamp": ts,
        "svix-signature": `v1,${hmac(Buffer.from(secret.replace(/^whsec_/, ""), "base64"), `${id}.${ts}.${body}`).toString("base64")}`,
      };
    case "paddle":
      return { "paddle-signature": `ts=${ts};h1=${hmac(secret, `${ts}:${body}`).toString("hex")}` };
    case "creem":
      return { "creem-signature": hmac(secret, body).toString("hex") };
    case "affonso":
      return { "x-affonso-signature": `t=${ts},v1=${hmac(secret, `${ts}.${body}`).toString("hex")}` };
    case "chargebee":
      return { authorization: `Basic ${Buffer.from(secret).toString("base64")}` };
    case "posthog":
      return { authorization: `Bearer ${secret}` };
  }
}
