import test from "ava";
import { ProviderWebhookSignatures, REPLAY_WINDOW_SECONDS } from "../../adapters/crypto/provider-webhook-signatures.js";
import { PROVIDERS, type Provider } from "../../core/integrations/model.js";
import { signWebhook } from "../helpers/provider-webhooks.js";

const signatures = new ProviderWebhookSignatures();
const NOW = new Date("2026-11-22T10:00:00.000Z");
const body = JSON.stringify({ type: "order.paid", data: { id: "ord_1" } });

const SECRETS: Record<Provider, string> = {
  polar: "polar_whs_2Xl0cpHqvnL1u8f2kG3lq9",
  paddle: "pdl_ntfset_01hv8wxyz_secretkey",
  dodo: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  whop: "ws_4f1d2a7c9e0b3a5d",
  creem: "whsec_creem_5e2a8c",
  chargebee: "hooks:s3cret-Passw0rd",
  clerk: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  posthog: "a-long-shared-secret-for-posthog",
  affonso: "whsec_affonso_abc123xyz",
};

/** Header names lower-cased, as Node gives them to the server. */
const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

test("the Standard Webhooks documentation's example verifies (Svix headers and webhook- headers alike)", (t) => {
  // The example of the Standard Webhooks specification (and Svix's docs): secret, id, timestamp, payload and signature as published.
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const payload = Buffer.from('{"test": 2432232314}');
  const at = new Date(1614265330 * 1000);
  const signed = { id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: "1614265330", signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" };
  t.deepEqual(
    signatures.verify("clerk", secret, { "svix-id": signed.id, "svix-timestamp": signed.timestamp, "svix-signature": signed.signature }, payload, at),
    {
      valid: true,
    },
  );
  t.deepEqual(
    signatures.verify(
      "dodo",
      secret,
      { "webhook-id": signed.id, "webhook-timestamp": signed.timestamp, "webhook-signature": `v1,bm90IGl0 ${signed.signature}` },
      payload,
      at,
    ),
    { valid: true },
    "one valid signature among several is enough (secret rotation)",
  );
  t.false(
    signatures.verify(
      "dodo",
      secret,
      { "webhook-id": signed.id, "webhook-timestamp": signed.timestamp, "webhook-signature": signed.signature },
      Buffer.from('{"test": 2432232315}'),
      at,
    ).valid,
  );
});

for (const provider of PROVIDERS) {
  test(`${provider}: a delivery signed as the provider documents verifies; a tampered body, a wrong secret or missing headers do not`, (t) => {
    const secret = SECRETS[provider];
    const headers = lower(signWebhook(provider, secret, body, NOW));
    t.deepEqual(signatures.verify(provider, secret, headers, Buffer.from(body), NOW), { valid: true });
    const bodyBound = provider !== "chargebee" && provider !== "posthog";
    if (bodyBound) t.false(signatures.verify(provider, secret, headers, Buffer.from(body.replace("ord_1", "ord_2")), NOW).valid, "tampered body");
    // The last characters changed: a base64 secret with one extra character would decode to the same key.
    t.false(
      signatures.verify(provider, provider === "chargebee" ? "hooks:other" : `${secret.slice(0, -4)}Zq9z`, headers, Buffer.from(body), NOW).valid,
      "wrong secret",
    );
    t.false(signatures.verify(provider, secret, {}, Buffer.from(body), NOW).valid, "no signature");
    t.false(signatures.verify(provider, "", headers, Buffer.from(body), NOW).valid, "an erased secret verifies nothing");
  });
}

for (const provider of ["polar", "paddle", "dodo", "whop", "clerk", "affonso"] as const) {
  test(`${provider}: a signature older (or newer) than the ${REPLAY_WINDOW_SECONDS / 60}-minute replay window is refused`, (t) => {
    const secret = SECRETS[provider];
    const old = new Date(NOW.getTime() - (REPLAY_WINDOW_SECONDS + 1) * 1000);
    const verdict = signatures.verify(provider, secret, lower(signWebhook(provider, secret, body, old)), Buffer.from(body), NOW);
    t.deepEqual(verdict, { valid: false, reason: "The webhook timestamp is outside the 5-minute replay window" });
    const future = new Date(NOW.getTime() + (REPLAY_WINDOW_SECONDS + 1) * 1000);
    t.false(signatures.verify(provider, secret, lower(signWebhook(provider, secret, body, future)), Buffer.from(body), NOW).valid);
    const edge = new Date(NOW.getTime() - (REPLAY_WINDOW_SECONDS - 1) * 1000);
    t.true(signatures.verify(provider, secret, lower(signWebhook(provider, secret, body, edge)), Buffer.from(body), NOW).valid);
  });
}

test("paddle: the documented header shape with a second h1 (secret rotation) verifies", (t) => {
  const secret = SECRETS.paddle;
  const signed = signWebhook("paddle", secret, body, NOW)["paddle-signature"]!;
  const [ts, h1] = signed.split(";");
  t.true(signatures.verify("paddle", secret, { "paddle-signature": `${ts};h1=${"0".repeat(64)};${h1}` }, Buffer.from(body), NOW).valid);
});
