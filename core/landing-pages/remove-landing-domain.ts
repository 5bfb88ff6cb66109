import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { LANDING_PAGE_NOT_FOUND } from "./errors.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingDomainRepository, LandingPageRepository } from "./ports.js";
import { LANDING_DOMAIN_NOT_FOUND, type LandingDomainAnswer } from "./verify-landing-domain.js";
import { toLandingPageView } from "./view.js";

/** DELETE /landing-pages/{id}/domain: the page is no longer served on its domain (at once); its publicUrl stays. */
export class RemoveLandingDomain {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly domains: LandingDomainRepository,
    private readonly links: LandingPageLinks,
  ) {}

  execute = async (actor: Actor, landingPageId: string): Promise<Result<LandingDomainAnswer>> => {
    const page = await this.pages.find(actor.companyId, landingPageId);
    if (!page) return fail(LANDING_PAGE_NOT_FOUND);
    const domain = await this.domains.forTarget(actor.companyId, landingPageId);
    if (!domain || !(await this.domains.delete(actor.companyId, domain.id))) return fail(LANDING_DOMAIN_NOT_FOUND);
    return ok({ landingPage: toLandingPageView(page, this.links), domain: null });
  };
}
