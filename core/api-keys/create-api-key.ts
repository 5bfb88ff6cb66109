import { chain } from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, isLeft, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { CreateApiKeyCommand } from "./commands.js";
import type { IssueApiKey } from "./issue-api-key.js";
import { ensureGrantable, resolveSelection } from "./key-selection.js";
import { DEFAULT_KEY_NAME } from "./model.js";
import { toApiKeyView, type CreatedApiKeyView } from "./view.js";

/** A member mints another key for themself, never with more than the key they use holds. */
export class CreateApiKey {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly issuer: IssueApiKey,
  ) {}

  execute = async (actor: Actor, input: CreateApiKeyCommand): Promise<Result<CreatedApiKeyView>> => {
    const selection = pipe(
      resolveSelection(input),
      chain((chosen) => ensureGrantable(chosen, actor.role, actor.scopes)),
    );
    if (isLeft(selection)) return selection;
    const member = await this.tenancy.findMember(actor.companyId, actor.memberId);
    if (!member) return fail(notFound("Team member not found"));
    const { record, plain } = await this.issuer.issue(member, input.name ?? DEFAULT_KEY_NAME, selection.right, input.deviceName ?? null);
    return ok({ ...toApiKeyView(record, actor.apiKeyId), key: plain });
  };
}
