import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateLandingPageCommand } from "./commands.js";
import { LANDING_PAGE_NOT_FOUND, slugTaken } from "./errors.js";
import type { LandingContentRules } from "./landing-content.js";
import type { LandingPage, LandingPageStatus } from "./model.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingPageRepository } from "./ports.js";
import { toLandingPageView, type LandingPageView } from "./view.js";

/**
 * Saves a page's name, slug and content, and moves it to `status` when one is given: PUT, and
 * publish or unpublish, which save what they are given first (compat-reference §19).
 * Publishing stamps `publishedAt`; a published page takes edits live.
 */
export class LandingPageEdits {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly contentRules: LandingContentRules,
    private readonly clock: Clock,
    private readonly links: LandingPageLinks,
  ) {}

  apply = async (actor: Actor, landingPageId: string, input: UpdateLandingPageCommand, status?: LandingPageStatus): Promise<Result<LandingPageView>> => {
    const page = await this.pages.find(actor.companyId, landingPageId);
    if (!page) return fail(LANDING_PAGE_NOT_FOUND);
    const content = input.content ? await this.contentRules.check(actor.companyId, input.content, page.content) : ok(page.content);
    if (content._tag === "Left") return content;
    const now = this.clock.now();
    const next = status ?? page.status;
    const updated: LandingPage = {
      ...page,
      name: input.name ?? page.name,
      slug: input.slug ?? page.slug,
      content: content.right,
      status: next,
      publishedAt: next === "published" ? (status === "published" ? now : page.publishedAt) : null,
      updatedAt: now,
    };
    const saved = await this.pages.update(updated);
    if (saved === "not_found") return fail(LANDING_PAGE_NOT_FOUND);
    if (saved === "slug_taken") return fail(slugTaken(updated.slug));
    return ok(toLandingPageView(updated, this.links));
  };
}
