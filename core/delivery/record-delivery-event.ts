import type { Automations } from "../ports/automations.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Clock } from "../ports/clock.js";
import type { EvaluateSendingHealth } from "../sending-health/evaluate-sending-health.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { SuppressionRepository } from "../suppressions/ports.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { suppressionForDeliveryEvent } from "../suppressions/suppression-for-delivery-event.js";
import type { DeliveryEvent } from "./model.js";
import type { EmailSendRepository } from "./ports.js";

/** How a provider names the send: by the send's own ID, or by Message-IDs to try in order. */
export interface SendReference {
  readonly emailSendId?: string | undefined;
  readonly messageIds?: readonly string[] | undefined;
}

export interface RecordedDeliveryEvent {
  /** The send it belongs to; null when no send of the company matches (the event is dropped). */
  readonly emailSendId: string | null;
  /** False when this event was stored before (a redelivered webhook). */
  readonly stored: boolean;
}

/**
 * A delivery event from a provider webhook: stored once per provider event ID, reflected on the
 * send, and, for permanent bounces and complaints, the recipient is suppressed (a permanent
 * bounce also marks the recipient's active contact `bounced`, and both make the contact leave
 * every sequence at once), and the company's rates are measured against the thresholds that
 * pause sending.
 */
export class RecordDeliveryEvent {
  constructor(
    private readonly sends: EmailSendRepository,
    private readonly suppressions: SuppressionRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly tenancy: TenancyRepository,
    private readonly health: EvaluateSendingHealth,
    private readonly automations: Automations,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** 404 for a company that does not exist, so a misconfigured webhook URL shows up at the provider. */
  companyExists = async (companyId: string): Promise<Result<true>> =>
    (await this.tenancy.findCompany(companyId)) ? ok(true) : fail(notFound("Company not found"));

  execute = async (companyId: string, reference: SendReference, event: DeliveryEvent): Promise<Result<RecordedDeliveryEvent>> => {
    const exists = await this.companyExists(companyId);
    if (exists._tag === "Left") return exists;
    let send = reference.emailSendId ? await this.sends.get(companyId, reference.emailSendId) : null;
    for (const messageId of reference.messageIds ?? []) {
      if (send) break;
      send = await this.sends.findByMessageId(companyId, messageId);
    }
    if (!send) return ok({ emailSendId: null, stored: false });

    const stored = await this.sends.recordDeliveryEvent(companyId, send.id, this.ids.next("eev"), event, this.clock.now());
    // Suppressing is idempotent, so it is repeated for a redelivered event (a crash may have come between).
    const reason = suppressionForDeliveryEvent(event);
    if (reason) await this.suppressions.add({ companyId, email: send.recipientEmail, reason, emailSendId: send.id, at: this.clock.now() });
    // The contact of the address shows the bounce too (an unsubscribed one stays unsubscribed); lifting the block makes it active again.
    if (reason === "hard_bounce") await this.subscribers.changeStatus(companyId, send.recipientEmail, "active", "bounced", this.clock.now());
    if (reason === "hard_bounce" || reason === "complaint")
      await this.automations.exit(companyId, { email: send.recipientEmail }, reason === "hard_bounce" ? "bounced" : "complained");
    // Also for a redelivered event: only ever pausing, it is safe to repeat, and it finishes what a crash interrupted.
    if (reason === "hard_bounce" || reason === "complaint") await this.health.execute(companyId, reason);
    return ok({ emailSendId: send.id, stored });
  };
}
