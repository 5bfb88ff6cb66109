import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { ACCOUNT_NOT_FOUND_MESSAGE } from "./model.js";
import type { AccountRepository } from "./ports.js";
import { toAccountView, toMemberView, type AccountMemberView, type AccountView } from "./view.js";

/** The route payload (a type alias: it must be assignable to a plain record). */
export type AccountWithMembers = {
  readonly account: AccountView;
  readonly members: readonly AccountMemberView[];
};

/** An account and its members, owners first. */
export class GetAccount {
  constructor(private readonly accounts: AccountRepository) {}

  execute = async (actor: Actor, externalId: string): Promise<Result<AccountWithMembers>> => {
    const account = await this.accounts.findByExternalId(actor.companyId, externalId);
    if (!account) return fail(notFound(ACCOUNT_NOT_FOUND_MESSAGE));
    const members = await this.accounts.listMembers(actor.companyId, account.id);
    return ok({ account: toAccountView(account), members: members.map(toMemberView) });
  };
}
