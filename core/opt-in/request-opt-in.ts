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
 * Double opt-in of a contact saved through the API. `applies` is asked before the contact is
 * saved, so that a new contact is stored unconfirmed in the same transaction (SaveContact's
 * `askToConfirm`): a crash can never leave it confirmed by omission. Then `execute` emails a
 * new contact, and an existing contact that has not confirmed yet again (rate-limited). A
 * contact that confirmed, or was there before without double opt-in, or is not active, is never
 * asked. Null when double opt-in does not apply at all (no `optIn` in the answer).
 */
export class RequestOptIn {
  constructor(
    private readonly optIns: OptInRepository,
    private readonly settings: TrackingSettingsRepository,
    private readonly sendEmail: SendConfirmationEmail,
    private readonly clock: Clock,
  ) {}

  /** Whether contacts saved with this mode are asked to confirm: `confirmed` never, else the mode or the company's setting. */
  applies = async (companyId: string, mode: OptInMode | undefined): Promise<boolean> =>
    mode !== "confirmed" && optInAsked(mode, await this.settings.find(companyId));

  /** `applies`: what `applies` answered before the contact was saved. */
  execute = async (contact: Subscriber, created: boolean, applies: boolean): Promise<OptInOutcome | null> => {
    if (!applies) return null;
    if (contact.status !== "active") return { required: false, emailQueued: false };
    // Already started with the contact when its save was asked to; a no-op then.
    if (created) await this.optIns.start(contact.companyId, contact.id, this.clock.now());
    else {
      const optIn = await this.optIns.find(contact.companyId, contact.id);
      if (!optIn || optIn.confirmedAt) return { required: false, emailQueued: false };
    }
    const sent = await this.sendEmail.execute(contact);
    return sent.queued ? { required: true, emailQueued: true } : { required: true, emailQueued: false, warning: sent.reason };
  };
}
