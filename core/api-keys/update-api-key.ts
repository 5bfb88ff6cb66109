import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, isLeft, ok, type Result } from "../shared/result.js";
import type { UpdateApiKeyCommand } from "./commands.js";
import { ensureGrantable, resolveSelection } from "./key-selection.js";
import type { KeySelection } from "./model.js";
import type { ApiKeyRepository } from "./ports.js";
import { API_KEY_NOT_FOUND } from "./revoke-api-key.js";
import { toApiKeyView, type ApiKeyView } from "./view.js";

/** Renames a key or replaces its whole selection (never beyond what the acting key holds). */
export class UpdateApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, keyId: string, input: UpdateApiKeyCommand): Promise<Result<ApiKeyView>> => {
    if (input.name === undefined && input.scopes === undefined && input.preset === undefined) {
      return fail(badRequest("No supported fields provided"));
    }
    const record = await this.keys.findActive(actor.companyId, keyId);
    if (!record) return fail(API_KEY_NOT_FOUND);
    let selection: KeySelection | undefined;
    if (input.scopes !== undefined || input.preset !== undefined) {
      const resolved = resolveSelection(input);
      if (isLeft(resolved)) return resolved;
      const grantable = ensureGrantable(resolved.right, record.member.role, actor.scopes);
      if (isLeft(grantable)) return grantable;
      selection = grantable.right;
    }
    const now = this.clock.now();
    const changes = { ...(input.name !== undefined ? { name: input.name } : {}), ...(selection ? { selection } : {}) };
    if (!(await this.keys.update(actor.companyId, keyId, changes, now))) return fail(API_KEY_NOT_FOUND);
    const key = {
      ...record.key,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(selection ?? {}),
      updatedAt: now,
    };
    return ok(toApiKeyView({ ...record, key }, actor.apiKeyId));
  };
}
