import type { ExitingContact, ExitReason } from "../ports/automations.js";
import type { Clock } from "../ports/clock.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { TriggerStore } from "./trigger-ports.js";

/** The `failedReason` a cancelled enrollment shows. */
export const EXIT_REASONS: Readonly<Record<ExitReason, string>> = {
  unsubscribed: "the contact is unsubscribed",
  bounced: "the contact is bounced",
  complained: "the contact complained (marked an email as spam)",
};

/**
 * A contact who unsubscribes, hard-bounces or complains leaves every sequence at once: each of
 * its running enrollments is cancelled with the reason, before any other step can run. (The
 * engine also stops a contact that is no longer active at its next step, in case a change of
 * status reached no caller of this.)
 */
export class ExitSequences {
  constructor(
    private readonly store: TriggerStore,
    private readonly subscribers: SubscriberRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (companyId: string, contact: ExitingContact, reason: ExitReason): Promise<number> => {
    const subscriberId = "subscriberId" in contact ? contact.subscriberId : (await this.subscribers.findByEmail(companyId, contact.email))?.id;
    if (!subscriberId) return 0;
    return this.store.cancelEverywhere(companyId, subscriberId, { reason: EXIT_REASONS[reason], at: this.clock.now() });
  };
}
