import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { WEB_TRACKING_KEY_NOT_FOUND } from "./model.js";
import type { WebTrackingKeyRepository } from "./ports.js";

/**
 * DELETE /web-tracking-keys/{id}: the key is gone for good; pages still carrying it and the
 * identity tokens minted for it are refused from then on. Events already recorded stay.
 */
export class DeleteWebTrackingKey {
  constructor(private readonly keys: WebTrackingKeyRepository) {}

  execute = async (actor: Actor, keyId: string): Promise<Result<{ message: string }>> =>
    (await this.keys.delete(actor.companyId, keyId)) ? ok({ message: "Web tracking key deleted" }) : fail(WEB_TRACKING_KEY_NOT_FOUND);
}
