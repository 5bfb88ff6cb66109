import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { DuplicateLandingPageCommand } from "./commands.js";
import { LANDING_PAGE_NOT_FOUND, slugTaken } from "./errors.js";
import type { LandingPage } from "./model.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingPageRepository } from "./ports.js";
import { uniqueSlug } from "./unique-slug.js";
import { toLandingPageView, type LandingPageView } from "./view.js";

/** POST /landing-pages/{id}/duplicate: a draft copy of the content, with no views or conversions. */
export class DuplicateLandingPage {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly links: LandingPageLinks,
  ) {}

  execute = async (actor: Actor, landingPageId: string, input: DuplicateLandingPageCommand): Promise<Result<LandingPageView>> => {
    const original = await this.pages.find(actor.companyId, landingPageId);
    if (!original) return fail(LANDING_PAGE_NOT_FOUND);
    const slug = input.slug ?? (await uniqueSlug(this.pages, actor.companyId, `${original.slug.slice(0, 90)}-copy`));
    const now = this.clock.now();
    const copy: LandingPage = {
      ...original,
      id: this.ids.next("lp"),
      name: input.name ?? `${original.name} (copy)`.slice(0, 255),
      slug,
      status: "draft",
      viewCount: 0,
      conversionCount: 0,
      publishedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    if ((await this.pages.insert(copy)) === "slug_taken") return fail(slugTaken(slug));
    return ok(toLandingPageView(copy, this.links));
  };
}
