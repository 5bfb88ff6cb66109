import type { RecordCustomEvent } from "../events/record-custom-event.js";
import type { Clock } from "../ports/clock.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { ConfirmationTokens } from "./confirmation-tokens.js";
import { SUBSCRIBER_CONFIRMED_EVENT } from "./model.js";
import type { OptInRepository } from "./ports.js";

/** What the confirmation page shows its visitor. */
export interface ConfirmationPage {
  readonly companyName: string;
  readonly email: string;
  readonly confirmed: boolean;
}

export const confirmationLinkNotFound = () => notFound("This confirmation link is not valid or has expired");

/**
 * A confirmation link, `GET` and `POST {BASE_URL}/c/{token}`. The token names the company and
 * the contact, so it confirms that contact of that company only; a token not signed here, or
 * expired, or naming a contact without an opt-in (or deleted), is NotFound.
 * `show` changes nothing (mail scanners fetch links); `confirm` confirms, once, and records the
 * `subscriber.confirmed` custom event at the confirmation's time: the event sequences and
 * segments start from. The event's fixed eventId makes a repeat record nothing, so every visit
 * records it again: a confirmation whose event was lost (a crash between the two writes) gets
 * it on the next visit.
 */
export class ConfirmSubscription {
  constructor(
    private readonly tokens: ConfirmationTokens,
    private readonly optIns: OptInRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly tenancy: TenancyRepository,
    private readonly recordEvent: RecordCustomEvent,
    private readonly clock: Clock,
  ) {}

  show = async (token: string): Promise<Result<ConfirmationPage>> => {
    const resolved = await this.resolve(token);
    if (resolved._tag === "Left") return resolved;
    const { contact, companyName, confirmedAt } = resolved.right;
    return ok({ companyName, email: contact.email, confirmed: confirmedAt !== null });
  };

  confirm = async (token: string): Promise<Result<ConfirmationPage>> => {
    const resolved = await this.resolve(token);
    if (resolved._tag === "Left") return resolved;
    const { contact, companyName, confirmedAt } = resolved.right;
    const now = this.clock.now();
    const at = (await this.optIns.confirm(contact.companyId, contact.id, now)) ? now : (confirmedAt ?? now);
    await this.recordEvent.execute(
      { companyId: contact.companyId, id: contact.id, email: contact.email },
      { name: SUBSCRIBER_CONFIRMED_EVENT, properties: {}, occurredAt: at, eventId: SUBSCRIBER_CONFIRMED_EVENT, source: "opt_in" },
    );
    return ok({ companyName, email: contact.email, confirmed: true });
  };

  private async resolve(token: string): Promise<Result<{ contact: TaggedSubscriber; companyName: string; confirmedAt: Date | null }>> {
    const target = this.tokens.read(token, this.clock.now());
    if (!target) return fail(confirmationLinkNotFound());
    const [optIn, contact, company] = await Promise.all([
      this.optIns.find(target.companyId, target.subscriberId),
      this.subscribers.findById(target.companyId, target.subscriberId),
      this.tenancy.findCompany(target.companyId),
    ]);
    if (!optIn || !contact || !company) return fail(confirmationLinkNotFound());
    return ok({ contact, companyName: company.name, confirmedAt: optIn.confirmedAt });
  }
}
