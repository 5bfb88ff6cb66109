import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { WebTrackingKeyRepository } from "./ports.js";
import { toWebTrackingKeyView, type WebTrackingKeyView } from "./view.js";

/** GET /web-tracking-keys: the company's keys, newest first (compat-reference §20: no paging). */
export class ListWebTrackingKeys {
  constructor(
    private readonly keys: WebTrackingKeyRepository,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor): Promise<Result<WebTrackingKeyView[]>> =>
    ok((await this.keys.list(actor.companyId)).map((key) => toWebTrackingKeyView(key, this.baseUrl)));
}
