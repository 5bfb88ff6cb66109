import type { Actor } from "../shared/actor.js";
import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { COMPANY_NOT_FOUND, SENDER_PROFILE_NOT_FOUND } from "./model.js";
import type { CompanyProfileRepository, ProfileRepository } from "./ports.js";

/**
 * DELETE /sender-profiles/{id} (compat-reference §17). Refused for the company's last sender
 * profile and for the default one (another default must be chosen first), so a company that
 * could send keeps a From address.
 */
export class DeleteSenderProfile {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly profiles: ProfileRepository,
  ) {}

  execute = async (actor: Actor, profileId: string): Promise<Result<{ senderProfileId: string }>> => {
    const company = await this.companies.find(actor.companyId);
    if (!company) return fail(COMPANY_NOT_FOUND);
    const profile = await this.profiles.findSender(actor.companyId, profileId);
    if (!profile) return fail(SENDER_PROFILE_NOT_FOUND);
    const all = await this.profiles.listSenders(actor.companyId);
    if (all.length <= 1) return fail(invalidState("Cannot delete the last sender profile: a company needs a From address"));
    if (company.defaultSenderProfileId === profileId) {
      return fail(
        invalidState("Cannot delete the default sender profile: choose another default first (PATCH /api/v1/companies/{companyId} with senderProfileId)"),
      );
    }
    await this.profiles.deleteSender(actor.companyId, profileId);
    return ok({ senderProfileId: profileId });
  };
}
