import type { IdGenerator } from "../ports/id-generator.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { SecretBox } from "../ports/secret-box.js";
import { SECRET_PREFIX_LENGTH, SIGNING_SECRET_PREFIX, type WebhookSigningSecret } from "./model.js";

/** A fresh `whsec_` secret: the plain text, shown once, and its sealed record, the only form stored. */
export function newSigningSecret(
  webhookId: string,
  now: Date,
  ports: { readonly ids: IdGenerator; readonly tokens: RandomTokens; readonly box: SecretBox },
): { readonly plain: string; readonly record: WebhookSigningSecret } {
  const plain = `${SIGNING_SECRET_PREFIX}${ports.tokens.next()}`;
  return {
    plain,
    record: {
      id: ports.ids.next("whs"),
      webhookId,
      prefix: plain.slice(0, SECRET_PREFIX_LENGTH),
      sealedSecret: ports.box.seal(plain),
      createdAt: now,
      expiresAt: null,
    },
  };
}
