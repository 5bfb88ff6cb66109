import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { LANDING_PAGE_NOT_FOUND } from "./errors.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingPageRepository } from "./ports.js";
import { toLandingPageView, type LandingPageView } from "./view.js";

/** GET /landing-pages/{id} (spec): 404 'Landing page not found'. */
export class GetLandingPage {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly links: LandingPageLinks,
  ) {}

  execute = async (actor: Actor, landingPageId: string): Promise<Result<LandingPageView>> => {
    const page = await this.pages.find(actor.companyId, landingPageId);
    return page ? ok(toLandingPageView(page, this.links)) : fail(LANDING_PAGE_NOT_FOUND);
  };
}
