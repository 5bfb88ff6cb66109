import type { Clock } from "../ports/clock.js";
import type { LandingPageRepository } from "./ports.js";

/**
 * A signup through a published page's form: its conversion. Only a page of the form's own
 * company counts, so another company's page cannot be credited (or inflated) through a form.
 */
export class RecordLandingConversion {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (companyId: string, landingPageId: string): Promise<boolean> => this.pages.countConversion(companyId, landingPageId, this.clock.now());
}
