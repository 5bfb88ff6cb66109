import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { identifySubscriber, subscriberNotFound, type SubscriberRef } from "./identify.js";
import type { SubscriberRepository } from "./ports.js";
import type { DeletedSubscriberView } from "./view.js";

/** Hard delete: the contact goes with its notes, tags, list memberships and events. */
export class DeleteSubscriber {
  constructor(private readonly subscribers: SubscriberRepository) {}

  execute = async (actor: Actor, ref: SubscriberRef): Promise<Result<DeletedSubscriberView>> => {
    const found = await identifySubscriber(this.subscribers, actor.companyId, ref);
    if (found._tag === "Left") return found;
    const { id, email } = found.right;
    // Deleted meanwhile by another request: it is gone either way, but this request did not do it.
    if (!(await this.subscribers.delete(actor.companyId, id))) return fail(subscriberNotFound());
    return ok({ deleted: true, hardDeleted: true, subscriber: { id, email } });
  };
}
