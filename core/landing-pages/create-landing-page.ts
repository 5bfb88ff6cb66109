import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { CreateLandingPageCommand } from "./commands.js";
import { slugTaken } from "./errors.js";
import type { LandingContentRules } from "./landing-content.js";
import { slugify, type LandingPage } from "./model.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingPageRepository } from "./ports.js";
import { templateContent } from "./templates.js";
import { uniqueSlug } from "./unique-slug.js";
import { toLandingPageView, type LandingPageView } from "./view.js";

/**
 * POST /landing-pages: a draft from a template (from-scratch by default) or from the given
 * content. A slug the caller chose must be free (409); one made from the name is made free.
 */
export class CreateLandingPage {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly contentRules: LandingContentRules,
    private readonly tenancy: TenancyRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly links: LandingPageLinks,
  ) {}

  execute = async (actor: Actor, input: CreateLandingPageCommand): Promise<Result<LandingPageView>> => {
    const template = input.template ?? "from-scratch";
    const companyName = (await this.tenancy.findCompany(actor.companyId))?.name ?? "";
    const start = templateContent(template, companyName);
    const content = input.content ? await this.contentRules.check(actor.companyId, input.content, start) : ok(start);
    if (content._tag === "Left") return content;
    const slug = input.slug ?? (await uniqueSlug(this.pages, actor.companyId, slugify(input.name)));
    const now = this.clock.now();
    const page: LandingPage = {
      id: this.ids.next("lp"),
      companyId: actor.companyId,
      name: input.name,
      slug,
      status: "draft",
      content: content.right,
      viewCount: 0,
      conversionCount: 0,
      publishedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    if ((await this.pages.insert(page)) === "slug_taken") return fail(slugTaken(slug));
    return ok(toLandingPageView(page, this.links));
  };
}
