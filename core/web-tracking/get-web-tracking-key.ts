import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { WEB_TRACKING_KEY_NOT_FOUND } from "./model.js";
import type { WebTrackingKeyRepository } from "./ports.js";
import { toWebTrackingKeyView, type WebTrackingKeyView } from "./view.js";

/** GET /web-tracking-keys/{id}; another company's key is as unknown as a missing one. */
export class GetWebTrackingKey {
  constructor(
    private readonly keys: WebTrackingKeyRepository,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, keyId: string): Promise<Result<WebTrackingKeyView>> => {
    const key = await this.keys.find(actor.companyId, keyId);
    return key ? ok(toWebTrackingKeyView(key, this.baseUrl)) : fail(WEB_TRACKING_KEY_NOT_FOUND);
  };
}
