import { randomBytes } from "node:crypto";
import test from "ava";
import { AesGcmSecretBox } from "../../../adapters/crypto/aes-gcm-secret-box.js";
import { openSource, sealSource } from "../../../core/migrations/sealed-source.js";

const box = new AesGcmSecretBox(randomBytes(32));
const CONFIG = { provider: "mailchimp", apiKey: "8f14e45fceea167a5a36dedd4bea2543-us21", baseUrl: null } as const;

test("a sealed source opens for its own run only, and holds no credential in plain text", (t) => {
  const sealed = sealSource(box, "mig_1", CONFIG);
  t.false(sealed.includes("8f14e45fceea"));
  t.false(Buffer.from(sealed.slice(3), "base64url").toString("latin1").includes("8f14e45fceea"));
  t.deepEqual(openSource(box, "mig_1", sealed), CONFIG);
  // Copied onto another run's row, it does not open there.
  t.throws(() => openSource(box, "mig_2", sealed), { message: /is not this run's/ });
  // Sealed under another key, or altered, it does not open at all.
  t.throws(() => openSource(new AesGcmSecretBox(randomBytes(32)), "mig_1", sealed));
  t.throws(() => openSource(box, "mig_1", `${sealed.slice(0, -2)}AA`));
});
