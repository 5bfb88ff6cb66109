import type { RequestOptIn } from "../opt-in/request-opt-in.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { SaveContact } from "../subscribers/save-contact.js";
import type { AddAccountMemberCommand } from "./commands.js";
import { ACCOUNT_NOT_FOUND_MESSAGE } from "./model.js";
import type { AccountRepository } from "./ports.js";
import { toMemberView, type AccountMemberView } from "./view.js";

/** The route payload (a type alias: it must be assignable to a plain record). */
export type AddedMember = {
  readonly member: AccountMemberView;
  /** False when the contact was a member already (its role is then the one given, or kept). */
  readonly added: boolean;
};

/**
 * Adds a contact to an account, or changes its role. A contact named by email is created when
 * the company does not know it yet (through SaveContact, like every contact write); one named by
 * subscriberId must exist. Without a role a new member is a `member` and an existing one keeps its role.
 * A contact created here is asked to confirm when the company has double opt-in on, like any other
 * new contact: being added to an account is no consent to marketing email.
 */
export class AddAccountMember {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly saveContact: SaveContact,
    private readonly requestOptIn: RequestOptIn,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, externalId: string, input: AddAccountMemberCommand): Promise<Result<AddedMember>> => {
    if (!input.email && !input.subscriberId) return fail(badRequest("email or subscriberId is required"));
    const account = await this.accounts.findByExternalId(actor.companyId, externalId);
    if (!account) return fail(notFound(ACCOUNT_NOT_FOUND_MESSAGE));

    const contact = await this.contactOf(actor.companyId, input);
    if (contact._tag === "Left") return contact;
    const subscriberId = contact.right;

    const role = input.role ?? (await this.accounts.findMember(actor.companyId, account.id, subscriberId))?.role ?? "member";
    const added = await this.accounts.saveMember(actor.companyId, account.id, subscriberId, role, this.clock.now());
    const member = await this.accounts.findMember(actor.companyId, account.id, subscriberId);
    if (!member) return fail(notFound("Subscriber not found"));
    return ok({ member: toMemberView(member), added });
  };

  private async contactOf(companyId: string, input: AddAccountMemberCommand): Promise<Result<string>> {
    if (input.subscriberId) {
      const subscriber = await this.subscribers.findById(companyId, input.subscriberId);
      if (!subscriber) return fail(notFound("Subscriber not found"));
      if (input.email && input.email !== subscriber.email) return fail(badRequest("email and subscriberId name different subscribers"));
      return ok(subscriber.id);
    }
    const askToConfirm = await this.requestOptIn.applies(companyId, undefined);
    const saved = await this.saveContact.execute(companyId, { email: input.email }, "skip", { askToConfirm });
    if (saved._tag === "Left") return saved;
    if (saved.right.created) await this.requestOptIn.execute(saved.right.subscriber, true, askToConfirm);
    return ok(saved.right.subscriber.id);
  }
}
