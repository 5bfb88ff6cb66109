import { createHash } from "node:crypto";
import test from "ava";
import { Sha256ApiKeySecrets } from "../../adapters/crypto/api-key-secrets.js";

const secrets = new Sha256ApiKeySecrets();

test("minted keys are lcsk_ + 32 base62 + a 6-character checksum, with a 12-character prefix and a SHA-256 hash", (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const minted = secrets.mint();
    t.regex(minted.plain, /^lcsk_[0-9A-Za-z]{38}$/);
    t.is(minted.prefix, minted.plain.slice(0, 12));
    t.is(minted.hash, createHash("sha256").update(minted.plain).digest("hex"));
    t.is(secrets.hashPresented(minted.plain), minted.hash);
    seen.add(minted.plain);
  }
  t.is(seen.size, 200);
});

test("a presented key with a typo, a wrong length or another format is refused before any lookup", (t) => {
  const { plain } = secrets.mint();
  const swapped = plain.slice(0, 10) + (plain[10] === "a" ? "b" : "a") + plain.slice(11);
  t.is(secrets.hashPresented(swapped), null);
  t.is(secrets.hashPresented(plain.slice(0, -1)), null);
  t.is(secrets.hashPresented(`${plain}x`), null);
  t.is(secrets.hashPresented(plain.replace("lcsk_", "seq_l")), null);
  t.is(secrets.hashPresented(""), null);
});
