import type { RequestOptIn } from "../opt-in/request-opt-in.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { CreateSubscriberCommand } from "./commands.js";
import { newContactOccurrences, triggerAllAfterWrite, type Automations } from "../ports/automations.js";
import type { Attributes } from "./model.js";
import { normalizePhone } from "./phone.js";
import type { SaveContact } from "./save-contact.js";
import { toSubscriberView, type CreatedSubscriberView } from "./view.js";

/**
 * POST /subscribers: creates a contact or matches an existing one (email, then externalId) and
 * applies `duplicateStrategy` (skip by default), all through SaveContact; then asks for a double
 * opt-in confirmation when `optInMode` (or, by default, the company's settings) says so. A new
 * contact starts the sequences triggered by contacts being added (to the company or its lists)
 * and by its tags, unless `enrollInSequences` is false (its default when `createdAt` backdates it).
 */
export class CreateSubscriber {
  constructor(
    private readonly saveContact: SaveContact,
    private readonly requestOptIn: RequestOptIn,
    private readonly automations: Automations,
  ) {}

  execute = (actor: Actor, input: CreateSubscriberCommand): Promise<Result<CreatedSubscriberView>> => this.forCompany(actor.companyId, input);

  /** The same for a caller without a key (a public signup form): the company is the form's. */
  forCompany = async (companyId: string, input: CreateSubscriberCommand): Promise<Result<CreatedSubscriberView>> => {
    const phone = input.phone === undefined ? undefined : normalizePhone(input.phone, input.phoneCountry);
    if (phone?._tag === "Left") return phone;
    const askToConfirm = await this.requestOptIn.applies(companyId, input.optInMode);
    const saved = await this.saveContact.execute(
      companyId,
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
      { askToConfirm },
    );
    if (saved._tag === "Left") return saved;
    const { subscriber, created, updated, skipped } = saved.right;
    const view = { ...toSubscriberView(subscriber), created, updated, skipped };
    const optIn = await this.requestOptIn.execute(subscriber, created, askToConfirm);
    // An unconfirmed contact starts its sequences when it confirms (core/sequences/start-sequences.ts).
    const enroll = created && (input.enrollInSequences ?? input.createdAt === undefined);
    const failures = enroll
      ? (await triggerAllAfterWrite(this.automations, companyId, [subscriber.id], newContactOccurrences(saved.right.listIds, subscriber.tags))).warnings
      : [];
    const warnings = [...(optIn?.warning ? [optIn.warning] : []), ...failures];
    if (!optIn) return ok({ subscriber: view, ...(warnings.length > 0 ? { warnings } : {}) });
    const { warning: _warning, ...answer } = optIn;
    return ok({ subscriber: view, optIn: answer, ...(warnings.length > 0 ? { warnings } : {}) });
  };
}
