import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { UpsertAccountCommand } from "./commands.js";
import type { Account } from "./model.js";
import type { AccountRepository } from "./ports.js";
import { toAccountView, type AccountView } from "./view.js";

/** The route payload (a type alias: it must be assignable to a plain record). */
export type UpsertedAccount = {
  readonly account: AccountView;
  readonly created: boolean;
};

/**
 * Creates the account of an externalId, or updates the fields given: name and domain are
 * replaced (null clears them), attributes are merged key by key.
 */
export class UpsertAccount {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: UpsertAccountCommand): Promise<Result<UpsertedAccount>> => {
    const now = this.clock.now();
    const existing = await this.accounts.findByExternalId(actor.companyId, input.externalId);
    if (!existing) {
      const account: Account = {
        id: this.ids.next("acct"),
        companyId: actor.companyId,
        externalId: input.externalId,
        name: input.name ?? null,
        domain: input.domain ?? null,
        attributes: input.attributes ?? {},
        createdAt: now,
        updatedAt: now,
      };
      if (await this.accounts.insert(account)) return ok({ account: toAccountView({ ...account, memberCount: 0 }), created: true });
      // Created by a concurrent request: update that one instead.
      return this.execute(actor, input);
    }
    const updated = {
      ...existing,
      name: input.name === undefined ? existing.name : input.name,
      domain: input.domain === undefined ? existing.domain : input.domain,
      attributes: input.attributes ? { ...existing.attributes, ...input.attributes } : existing.attributes,
      updatedAt: now,
    };
    await this.accounts.update(updated);
    return ok({ account: toAccountView(updated), created: false });
  };
}
