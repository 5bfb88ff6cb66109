import { randomBytes } from "node:crypto";
import test from "ava";
import { AesGcmSecretBox } from "../../adapters/crypto/aes-gcm-secret-box.js";
import { HmacTokenSigner } from "../../adapters/crypto/hmac-token-signer.js";

const key = randomBytes(32);
const now = new Date("2026-11-23T12:00:00.000Z");

test("a sealed secret opens to the same text, never shows it, and differs on every seal", (t) => {
  const box = new AesGcmSecretBox(key);
  const secret = "-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----";
  const sealed = box.seal(secret);
  t.not(sealed, box.seal(secret));
  t.false(sealed.includes("PRIVATE"));
  t.is(box.open(sealed), secret);
});

test("a sealed secret does not open under another key or after tampering", (t) => {
  const sealed = new AesGcmSecretBox(key).seal("hunter2");
  t.throws(() => new AesGcmSecretBox(randomBytes(32)).open(sealed));
  const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.at(-1);
  t.throws(() => new AesGcmSecretBox(key).open(flipped));
  t.throws(() => new AesGcmSecretBox(key).open("plain text"));
});

test("a token verifies for its own purpose only, unchanged, before its expiry", (t) => {
  const signer = new HmacTokenSigner(key);
  const token = signer.sign("open", { s: "send_1" }, new Date(now.getTime() + 60_000));
  t.deepEqual(signer.verify("open", token, now), { s: "send_1", exp: now.getTime() + 60_000 });
  t.is(signer.verify("unsubscribe", token, now), null);
  t.is(signer.verify("open", token, new Date(now.getTime() + 60_000)), null);
  t.is(new HmacTokenSigner(randomBytes(32)).verify("open", token, now), null);
  const [body, mac] = token.split(".");
  const forged = Buffer.from(JSON.stringify({ s: "send_2", exp: now.getTime() + 60_000 })).toString("base64url");
  t.is(signer.verify("open", `${forged}.${mac}`, now), null);
  t.is(signer.verify("open", `${body}`, now), null);
  t.is(signer.verify("open", "", now), null);
});

test("a token without expiry stays valid and is URL-safe", (t) => {
  const signer = new HmacTokenSigner(key);
  const token = signer.sign("click", { s: "send_1", u: "https://example.com/a?b=c&d=é" });
  t.regex(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  t.deepEqual(signer.verify("click", token, new Date("2099-01-01T00:00:00.000Z")), { s: "send_1", u: "https://example.com/a?b=c&d=é" });
});
