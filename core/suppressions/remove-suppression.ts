import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { isRemovable, REMOVABLE_REASONS, type Suppression } from "./model.js";
import type { SuppressionRepository } from "./ports.js";
import { suppressionView, type SuppressionView } from "./view.js";

export interface RemovedSuppression {
  readonly email: string;
  /** A block was lifted: mail can reach the address again. */
  readonly removed: boolean;
  /** The lifted block was a bounce: the hard-bounce suppression, the contact's `bounced` status, or both. */
  readonly removedLocalBounce: boolean;
  /** Kept for compatibility: suppressions live in this service only, never at a provider. */
  readonly removedSesRegions: string[];
  /** What still stops mail to the address (a complaint or an unsubscribe, which only the recipient can undo); null when nothing does. */
  readonly remainingSuppression: SuppressionView | null;
  readonly message: string;
}

/**
 * DELETE /suppressions/{email}: lifts a bounce block or a manual block the company put there
 * (compat-reference §24). A bounce is recorded twice, as the suppression and as the contact's
 * `bounced` status: both are lifted, so the contact is `active` again. A complaint or an
 * unsubscribe stays, reported as remainingSuppression. Nothing to lift is not an error.
 */
export class RemoveSuppression {
  constructor(
    private readonly suppressions: SuppressionRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, email: string): Promise<Result<RemovedSuppression>> => {
    const { companyId } = actor;
    const address = email.toLowerCase();
    const existing = await this.suppressions.find(companyId, address);
    if (existing && !isRemovable(existing.reason)) return ok(stays(address, existing));
    const liftedSuppression = existing ? await this.suppressions.remove(companyId, address, REMOVABLE_REASONS) : false;
    // What was suppressed between the look and the delete (a complaint is never lifted) is reported, not lifted.
    const meanwhile = liftedSuppression || !existing ? null : await this.suppressions.find(companyId, address);
    if (meanwhile) return ok(stays(address, meanwhile));
    const liftedContactBounce = await this.subscribers.changeStatus(companyId, address, "bounced", "active", this.clock.now());
    const removed = liftedSuppression || liftedContactBounce;
    return ok({
      email: address,
      removed,
      removedLocalBounce: (liftedSuppression && existing?.reason === "hard_bounce") || liftedContactBounce,
      removedSesRegions: [],
      remainingSuppression: null,
      message: removed ? `Mail can reach ${address} again` : `${address} was not suppressed`,
    });
  };
}

/** The answer when a suppression stays in force. */
function stays(address: string, suppression: Suppression): RemovedSuppression {
  const why = isRemovable(suppression.reason)
    ? "it was suppressed again meanwhile"
    : `a${suppression.reason === "complaint" ? " complaint" : "n unsubscribe"} is the recipient's decision and only they can undo it`;
  return {
    email: address,
    removed: false,
    removedLocalBounce: false,
    removedSesRegions: [],
    remainingSuppression: suppressionView(suppression),
    message: `${address} stays suppressed: ${why}`,
  };
}
