import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { CreateSubscriberCommand } from "./commands.js";
import type { Attributes } from "./model.js";
import { normalizePhone } from "./phone.js";
import type { SaveContact } from "./save-contact.js";
import { toSubscriberView, type CreatedSubscriberView } from "./view.js";

export const OPT_IN_NOT_SENT = "Double opt-in confirmation emails are not sent yet: no confirmation email was queued";

/**
 * POST /subscribers: creates a contact or matches an existing one (email, then externalId) and
 * applies `duplicateStrategy` (skip by default), all through SaveContact.
 */
export class CreateSubscriber {
  constructor(private readonly saveContact: SaveContact) {}

  execute = async (actor: Actor, input: CreateSubscriberCommand): Promise<Result<CreatedSubscriberView>> => {
    const phone = input.phone === undefined ? undefined : normalizePhone(input.phone, input.phoneCountry);
    if (phone?._tag === "Left") return phone;
    const saved = await this.saveContact.execute(
      actor.companyId,
      {
        email: input.email,
        externalId: input.externalId,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: phone?.right,
        timezone: input.timezone,
        status: input.status,
        customAttributes: input.customAttributes as Attributes | undefined,
        tags: input.tags,
        lists: input.lists,
        createdAt: input.createdAt,
      },
      input.duplicateStrategy ?? "skip",
    );
    if (saved._tag === "Left") return saved;
    const { subscriber, created, updated, skipped } = saved.right;
    const view = { ...toSubscriberView(subscriber), created, updated, skipped };
    if (input.optInMode !== "double_opt_in") return ok({ subscriber: view });
    // A new contact would confirm by email; an existing one has been asked (or has answered) before.
    const required = created && subscriber.status === "active";
    return ok({ subscriber: view, optIn: { required, emailQueued: false }, ...(required ? { warnings: [OPT_IN_NOT_SENT] } : {}) });
  };
}
