import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import { normalizeOrigins } from "./allowed-origins.js";
import type { CreateWebTrackingKeyCommand } from "./commands.js";
import { PUBLIC_KEY_PREFIX, type WebTrackingKey } from "./model.js";
import type { WebTrackingKeyRepository } from "./ports.js";
import { toWebTrackingKeyView, type WebTrackingKeyView } from "./view.js";

/**
 * POST /web-tracking-keys: a new active key. Every origin is normalized before anything is saved,
 * and one that is not an origin refuses the whole request; no origins make the key unrestricted.
 */
export class CreateWebTrackingKey {
  constructor(
    private readonly keys: WebTrackingKeyRepository,
    private readonly ids: IdGenerator,
    private readonly randomTokens: RandomTokens,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, input: CreateWebTrackingKeyCommand): Promise<Result<WebTrackingKeyView>> => {
    const origins = normalizeOrigins(input.allowedOrigins ?? []);
    if (origins._tag === "Left") return origins;
    const now = this.clock.now();
    const key: WebTrackingKey = {
      id: this.ids.next("wtk"),
      companyId: actor.companyId,
      name: input.name,
      publicKey: `${PUBLIC_KEY_PREFIX}${this.randomTokens.next()}`,
      allowedOrigins: origins.right,
      isActive: true,
      lastUsedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.keys.insert(key);
    return ok(toWebTrackingKeyView(key, this.baseUrl));
  };
}
