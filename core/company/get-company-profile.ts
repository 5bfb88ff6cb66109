import { fail, ok, type Result } from "../shared/result.js";
import { COMPANY_NOT_FOUND } from "./model.js";
import type { CompanyProfileRepository, ProfileRepository } from "./ports.js";
import { toCompanyView, type CompanyView } from "./view.js";

/**
 * A company's profile as the API shows it and as emails use it: name, brand colors, the
 * resolved email theme (`resolvedEmailTheme`), default From and Reply-To. Called by the routes
 * with the actor's company, and by the renderer and the footer generator with a send's company.
 */
export class GetCompanyProfile {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly profiles: ProfileRepository,
  ) {}

  execute = async (companyId: string): Promise<Result<CompanyView>> => {
    const company = await this.companies.find(companyId);
    if (!company) return fail(COMPANY_NOT_FOUND);
    const [sender, reply] = await Promise.all([
      company.defaultSenderProfileId ? this.profiles.findSender(companyId, company.defaultSenderProfileId) : null,
      company.defaultReplyProfileId ? this.profiles.findReply(companyId, company.defaultReplyProfileId) : null,
    ]);
    return ok(toCompanyView(company, sender, reply));
  };
}
