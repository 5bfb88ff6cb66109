import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { normalizeOrigins } from "./allowed-origins.js";
import type { UpdateWebTrackingKeyCommand } from "./commands.js";
import { WEB_TRACKING_KEY_NOT_FOUND } from "./model.js";
import type { WebTrackingKeyChanges, WebTrackingKeyRepository } from "./ports.js";
import { toWebTrackingKeyView, type WebTrackingKeyView } from "./view.js";

/**
 * PATCH /web-tracking-keys/{id} (compat-reference §20): renames, replaces the allowed origins
 * (the same rules as at creation; an empty list or null makes the key unrestricted) or turns the
 * key off and on. An inactive key's events are refused at once; its identity tokens work again
 * when it is turned back on.
 */
export class UpdateWebTrackingKey {
  constructor(
    private readonly keys: WebTrackingKeyRepository,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, keyId: string, input: UpdateWebTrackingKeyCommand): Promise<Result<WebTrackingKeyView>> => {
    if (input.name === undefined && input.allowedOrigins === undefined && input.isActive === undefined) {
      return fail(badRequest("Provide at least one of name, allowedOrigins, isActive"));
    }
    let allowedOrigins: string[] | undefined;
    if (input.allowedOrigins !== undefined) {
      const origins = normalizeOrigins(input.allowedOrigins ?? []);
      if (origins._tag === "Left") return origins;
      allowedOrigins = origins.right;
    }
    const changes: WebTrackingKeyChanges = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(allowedOrigins !== undefined ? { allowedOrigins } : {}),
      ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
    };
    const updated = await this.keys.update(actor.companyId, keyId, changes, this.clock.now());
    return updated ? ok(toWebTrackingKeyView(updated, this.baseUrl)) : fail(WEB_TRACKING_KEY_NOT_FOUND);
  };
}
