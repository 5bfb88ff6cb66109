import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { LANDING_PAGE_NOT_FOUND } from "./errors.js";
import type { LandingPageRepository } from "./ports.js";

/** DELETE /landing-pages/{id}: the page is gone at once, its public URL too. */
export class DeleteLandingPage {
  constructor(private readonly pages: LandingPageRepository) {}

  execute = async (actor: Actor, landingPageId: string): Promise<Result<{ landingPageId: string }>> =>
    (await this.pages.delete(actor.companyId, landingPageId)) ? ok({ landingPageId }) : fail(LANDING_PAGE_NOT_FOUND);
}
