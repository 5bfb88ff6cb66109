import type { OptInMode, Subscriber } from "../subscribers/model.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import type { Clock } from "../ports/clock.js";
import { optInAsked } from "./model.js";
import type { OptInRepository } from "./ports.js";
import type { SendConfirmationEmail } from "./send-confirmation-email.js";

/** The `optIn` of a create answer, and why no email was queued when one was due. */
export interface OptInOutcome {
  /** The contact has to confirm before it gets marketing email. */
  readonly required: boolean;
  /** A confirmation email was queued by this request. */
  readonly emailQueued: boolean;
  readonly warning?: string;
}

/**
 * After a contact was saved with an opt-in mode: when double opt-in applies, a new contact starts
 * unconfirmed and is emailed; an existing contact that has not confirmed yet is emailed again
 * (rate-limited). A contact that confirmed, or was there before without double opt-in, or is not
 * active, is never asked. Null when double opt-in does not apply at all (no `optIn` in the answer).
 */
export class RequestOptIn {
  constructor(
    private readonly optIns: OptInRepository,
    private readonly settings: TrackingSettingsRepository,
    private readonly sendEmail: SendConfirmationEmail,
    private readonly clock: Clock,
  ) {}

  execute = async (contact: Subscriber, created: boolean, mode: OptInMode | undefined): Promise<OptInOutcome | null> => {
    if (mode === "confirmed") return null;
    if (!optInAsked(mode, await this.settings.find(contact.companyId))) return null;
    if (contact.status !== "active") return { required: false, emailQueued: false };
    if (created) await this.optIns.start(contact.companyId, contact.id, this.clock.now());
    else {
      const optIn = await this.optIns.find(contact.companyId, contact.id);
      if (!optIn || optIn.confirmedAt) return { required: false, emailQueued: false };
    }
    const sent = await this.sendEmail.execute(contact);
    return sent.queued ? { required: true, emailQueued: true } : { required: true, emailQueued: false, warning: sent.reason };
  };
}
