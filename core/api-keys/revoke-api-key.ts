import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { ApiKeyRepository } from "./ports.js";
import { toApiKeyView, type ApiKeyView } from "./view.js";

/** The spec's 404 body for this route is only `{error}`. */
export const API_KEY_NOT_FOUND = notFound("API key not found", { bare: true });

/** Revocation is permanent: the key's next request, on any server, gets 401. */
export class RevokeApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, keyId: string): Promise<Result<ApiKeyView>> => {
    const record = await this.keys.findActive(actor.companyId, keyId);
    if (!record) return fail(API_KEY_NOT_FOUND);
    const now = this.clock.now();
    if (!(await this.keys.revoke(actor.companyId, keyId, now))) return fail(API_KEY_NOT_FOUND);
    return ok(toApiKeyView({ ...record, key: { ...record.key, revokedAt: now, updatedAt: now } }, actor.apiKeyId));
  };
}
