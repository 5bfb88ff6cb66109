import { newContactOccurrences, triggerAllAfterWrite, type Automations } from "../ports/automations.js";
import type { OptInOutcome, RequestOptIn } from "../opt-in/request-opt-in.js";
import type { Attributes } from "../subscribers/model.js";
import type { SaveContact } from "../subscribers/save-contact.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CustomEventRepository } from "./ports.js";

/** Who an event is for, and what to record about them (applied with the `merge` strategy). */
export interface EventIdentity {
  readonly email?: string | undefined;
  readonly externalId?: string | undefined;
  readonly firstName?: string | null | undefined;
  readonly lastName?: string | null | undefined;
  readonly customAttributes?: Readonly<Record<string, unknown>> | undefined;
  /** List IDs the contact joins (integrations' list targeting). */
  readonly lists?: readonly string[] | undefined;
}

export interface EventSubscriber {
  readonly companyId: string;
  readonly id: string;
  readonly email: string;
  /** The event created the contact. */
  readonly created: boolean;
  /** A contact the event created, when double opt-in applies to the company: it is asked to confirm. */
  readonly optIn?: OptInOutcome;
}

export const subscriberNotFound = () => notFound("Subscriber not found");

/**
 * Finds the contact events are sent for, creating it when new (an email is needed for that).
 * An event that names a known contact and nothing else about it costs one indexed lookup;
 * anything that changes or creates the contact goes through SaveContact. A contact it creates is
 * asked to confirm when the company has double opt-in on, as one from POST /subscribers is, and
 * starts the sequences of new contacts.
 */
export class ResolveEventContact {
  constructor(
    private readonly events: CustomEventRepository,
    private readonly saveContact: SaveContact,
    private readonly requestOptIn: RequestOptIn,
    private readonly automations: Automations,
  ) {}

  execute = async (companyId: string, identity: EventIdentity): Promise<Result<EventSubscriber>> => {
    const { email, externalId } = identity;
    if (!email && !externalId) return fail(badRequest("email or externalId is required"));
    const changesContact =
      identity.firstName !== undefined || identity.lastName !== undefined || identity.customAttributes !== undefined || (identity.lists?.length ?? 0) > 0;
    const linksExternalId = Boolean(email && externalId);
    if (!changesContact || !email) {
      const found = await this.events.findContact(companyId, email ? { email } : { externalId: externalId! });
      if (!found && !email) return fail(subscriberNotFound());
      if (found && !changesContact && (!linksExternalId || found.externalId === externalId))
        return ok({ companyId, id: found.id, email: found.email, created: false });
    }
    // Asked before the save, so a contact it creates is stored unconfirmed with it when double opt-in applies.
    const askToConfirm = await this.requestOptIn.applies(companyId, undefined);
    const saved = await this.saveContact.execute(
      companyId,
      {
        email,
        externalId,
        firstName: identity.firstName,
        lastName: identity.lastName,
        customAttributes: identity.customAttributes as Attributes | undefined,
        lists: identity.lists,
      },
      "merge",
      { askToConfirm },
    );
    if (saved._tag === "Left") return saved;
    const { subscriber, created, listIds } = saved.right;
    const optIn = created ? await this.requestOptIn.execute(subscriber, true, askToConfirm) : null;
    if (created) await triggerAllAfterWrite(this.automations, companyId, [subscriber.id], newContactOccurrences(listIds, []));
    return ok({ companyId, id: subscriber.id, email: subscriber.email, created, ...(optIn ? { optIn } : {}) });
  };
}
