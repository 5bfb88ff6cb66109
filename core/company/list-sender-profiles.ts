import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { COMPANY_NOT_FOUND } from "./model.js";
import type { CompanyProfileRepository, ProfileRepository } from "./ports.js";
import { toReplyProfileView, toSenderProfileView, type ReplyProfileView, type SenderProfileView } from "./view.js";

export interface SenderProfilesView {
  readonly senderProfiles: readonly SenderProfileView[];
  readonly replyProfiles: readonly ReplyProfileView[];
  readonly defaultSenderProfileId: string | null;
  readonly defaultReplyProfileId: string | null;
}

/** GET /sender-profiles: every From and Reply-To identity of the company, oldest first. */
export class ListSenderProfiles {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly profiles: ProfileRepository,
  ) {}

  execute = async (actor: Actor): Promise<Result<SenderProfilesView>> => {
    const company = await this.companies.find(actor.companyId);
    if (!company) return fail(COMPANY_NOT_FOUND);
    const [senders, replies] = await Promise.all([this.profiles.listSenders(actor.companyId), this.profiles.listReplies(actor.companyId)]);
    return ok({
      senderProfiles: senders.map((profile) => toSenderProfileView(profile, company.defaultSenderProfileId)),
      replyProfiles: replies.map((profile) => toReplyProfileView(profile, company.defaultReplyProfileId)),
      defaultSenderProfileId: company.defaultSenderProfileId,
      defaultReplyProfileId: company.defaultReplyProfileId,
    });
  };
}
