import { occurredAtProblem } from "../events/model.js";
import type { RecordCustomEvent } from "../events/record-custom-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, failed, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { CONTACT_DELETED, deliveryEventId, type AccountEvent, type AccountEventDelivery } from "./account-event.js";
import type { RecordAccountEventCommand } from "./commands.js";
import { ACCOUNT_NOT_FOUND_MESSAGE, type AccountWithCount } from "./model.js";
import type { AccountEventRepository, AccountRepository } from "./ports.js";
import { DEFAULT_RECIPIENTS, isRecipientOption, RECIPIENT_OPTIONS, selectRecipients, type RecipientOption } from "./recipients.js";
import type { AccountEventReport, DeliveryReport } from "./view.js";

/** What a client sees of a failed delivery; the cause stays in account_event_deliveries.error. */
const DELIVERY_FAILED = "The event could not be recorded for this contact";

/**
 * Records an event on an account's timeline and delivers it to the chosen members as a normal
 * contact event (source `account`), whose properties carry `account: {externalId, name, role,
 * ...attributes}` so sequences can read `event.account.*`.
 *
 * With an eventId the event is recorded once per account: a retry reuses the original
 * recipients, properties and time, leaves completed deliveries alone, resumes failed ones and
 * skips contacts deleted since. Each delivery records its contact event under an eventId of its
 * own, so a delivery interrupted after its event was stored never stores it twice.
 */
export class RecordAccountEvent {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly events: AccountEventRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly recordCustomEvent: RecordCustomEvent,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, externalId: string, input: RecordAccountEventCommand): Promise<Result<AccountEventReport>> => {
    const option = input.recipients ?? DEFAULT_RECIPIENTS;
    if (!isRecipientOption(option)) return fail(badRequest(`Invalid recipients: must be one of ${RECIPIENT_OPTIONS.join(", ")}`));
    const now = this.clock.now();
    const occurredAt = input.occurredAt ?? now;
    const problem = occurredAtProblem(occurredAt, now);
    if (problem) return fail(badRequest(problem));

    const account = await this.accounts.findByExternalId(actor.companyId, externalId);
    if (!account) return fail(notFound(ACCOUNT_NOT_FOUND_MESSAGE));

    const { event, duplicate } = await this.recordOrFindOriginal(account, input, option, occurredAt, now);
    const deliveries: DeliveryReport[] = [];
    for (const delivery of event.deliveries) deliveries.push(await this.deliver(account, event, delivery));

    const failures = deliveries.filter((d) => !d.success && !d.skipped).length;
    if (failures > 0) {
      const retry = event.eventId ? "; retry with the same eventId to resume them" : "";
      return fail(failed(`${failures} of ${deliveries.length} deliveries failed${retry}`, { extra: { recipientCount: deliveries.length, deliveries } }));
    }
    return ok({
      account: { id: account.id, externalId: account.externalId, name: account.name, memberCount: account.memberCount },
      event: { id: event.id, name: event.name, time: event.occurredAt.toISOString() },
      recipients: event.recipients,
      recipientCount: deliveries.length,
      truncated: event.truncated,
      duplicate,
      deliveries,
    });
  };

  /** The event as first recorded under its eventId, or a new one with its recipients chosen now. */
  private async recordOrFindOriginal(
    account: AccountWithCount,
    input: RecordAccountEventCommand,
    option: RecipientOption,
    occurredAt: Date,
    now: Date,
  ): Promise<{ event: AccountEvent; duplicate: boolean }> {
    const eventId = input.eventId ?? null;
    if (eventId) {
      const original = await this.events.findByEventId(account.companyId, account.id, eventId);
      if (original) return { event: original, duplicate: true };
    }
    const selection = selectRecipients(await this.accounts.listMembers(account.companyId, account.id), option);
    const event: AccountEvent = {
      id: this.ids.next("aevt"),
      companyId: account.companyId,
      accountId: account.id,
      name: input.event,
      properties: input.properties ?? {},
      occurredAt,
      eventId,
      recipients: option,
      truncated: selection.truncated,
      createdAt: now,
      deliveries: selection.recipients.map((member, position) => ({
        subscriberId: member.subscriberId,
        email: member.email,
        role: member.role,
        position,
        status: "pending",
        customEventId: null,
        error: null,
      })),
    };
    if (await this.events.insert(event)) return { event, duplicate: false };
    // A concurrent request recorded the same eventId first: work through its deliveries.
    const original = eventId ? await this.events.findByEventId(account.companyId, account.id, eventId) : null;
    if (!original) throw new Error(`account event ${event.id} was refused but no event with its eventId exists`);
    return { event: original, duplicate: true };
  }

  private async deliver(account: AccountWithCount, event: AccountEvent, delivery: AccountEventDelivery): Promise<DeliveryReport> {
    const report = { subscriberId: delivery.subscriberId, email: delivery.email, role: delivery.role, automationsTriggered: [] as string[] };
    if (delivery.status === "completed") return { ...report, success: true };
    if (delivery.status === "skipped") return { ...report, success: false, skipped: CONTACT_DELETED };

    const contact = await this.subscribers.findById(account.companyId, delivery.subscriberId);
    if (!contact) {
      await this.events.settleDelivery(
        account.companyId,
        event.id,
        delivery.subscriberId,
        { status: "skipped", customEventId: null, error: CONTACT_DELETED },
        this.clock.now(),
      );
      return { ...report, success: false, skipped: CONTACT_DELETED };
    }
    let customEventId: string;
    let automationsTriggered: string[];
    try {
      const recorded = await this.recordCustomEvent.execute(
        { companyId: account.companyId, id: contact.id, email: contact.email },
        {
          name: event.name,
          properties: { ...event.properties, account: { ...account.attributes, externalId: account.externalId, name: account.name, role: delivery.role } },
          occurredAt: event.occurredAt,
          eventId: deliveryEventId(event.id, contact.id),
          source: "account",
        },
      );
      customEventId = recorded.id;
      automationsTriggered = recorded.automationsTriggered;
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      await this.events.settleDelivery(
        account.companyId,
        event.id,
        delivery.subscriberId,
        { status: "failed", customEventId: null, error: cause },
        this.clock.now(),
      );
      return { ...report, success: false, error: DELIVERY_FAILED };
    }
    await this.events.settleDelivery(account.companyId, event.id, delivery.subscriberId, { status: "completed", customEventId, error: null }, this.clock.now());
    return { ...report, success: true, automationsTriggered };
  }
}
