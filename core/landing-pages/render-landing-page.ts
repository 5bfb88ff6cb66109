import type { FormRepository } from "../forms/ports.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { RenderLandingPageCommand } from "./commands.js";
import { LANDING_PAGE_NOT_FOUND } from "./errors.js";
import { hostedPage, type HostedPage } from "./hosted-page.js";
import type { LandingContentRules } from "./landing-content.js";
import type { LandingPageRepository } from "./ports.js";

/**
 * POST /landing-pages/{id}/render: the page as visitors would get it, with the content given in
 * place of the stored one when there is some (checked as an edit would be; nothing is saved,
 * nothing counted): an editor's preview before saving.
 */
export class RenderLandingPage {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly contentRules: LandingContentRules,
    private readonly forms: FormRepository,
    private readonly tenancy: TenancyRepository,
  ) {}

  execute = async (actor: Actor, landingPageId: string, input: RenderLandingPageCommand): Promise<Result<HostedPage>> => {
    const stored = await this.pages.find(actor.companyId, landingPageId);
    if (!stored) return fail(LANDING_PAGE_NOT_FOUND);
    const content = input.content ? await this.contentRules.check(actor.companyId, input.content, stored.content) : ok(stored.content);
    if (content._tag === "Left") return content;
    return ok(await hostedPage(this.forms, this.tenancy, { ...stored, content: content.right }));
  };
}
