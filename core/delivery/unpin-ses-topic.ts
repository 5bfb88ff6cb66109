import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { SesTopicPins } from "./ports.js";

/** DELETE /delivery-webhooks/ses-topic: the next topic whose subscription is confirmed is pinned. */
export class UnpinSesTopic {
  constructor(private readonly pins: SesTopicPins) {}

  execute = async (actor: Actor): Promise<Result<{ unpinned: string | null }>> => ok({ unpinned: await this.pins.unpin(actor.companyId) });
}
