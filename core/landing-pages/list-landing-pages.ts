import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingPageRepository } from "./ports.js";
import { toLandingPageView, type LandingPageView } from "./view.js";

/** GET /landing-pages: every page of the company, newest first (compat-reference: no pagination). */
export class ListLandingPages {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly links: LandingPageLinks,
  ) {}

  execute = async (actor: Actor): Promise<Result<LandingPageView[]>> =>
    ok((await this.pages.list(actor.companyId)).map((page) => toLandingPageView(page, this.links)));
}
