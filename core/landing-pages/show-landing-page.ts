import type { FormRepository } from "../forms/ports.js";
import { isMachineAgent } from "../tracking/machine-engagement.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { formOfPage, type HostedPage } from "./hosted-page.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingPageRepository } from "./ports.js";

/** Who asks for a page: crawlers, previewers and HEAD requests are not views. */
export interface PageVisit {
  readonly method: string;
  readonly userAgent: string | null;
}

/**
 * The public pages: a published page at its publicUrl (a person's visit counts as a view), and
 * any page, draft too, through a valid preview link (never counted). Null: a 404.
 */
export class ShowLandingPage {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly forms: FormRepository,
    private readonly tenancy: TenancyRepository,
    private readonly links: LandingPageLinks,
  ) {}

  published = async (companyId: string, slug: string, visit: PageVisit): Promise<HostedPage | null> => {
    const page = await this.pages.findPublished(companyId, slug);
    if (!page) return null;
    if (visit.method.toUpperCase() !== "HEAD" && !isMachineAgent(visit.userAgent)) await this.pages.countView(companyId, page.id);
    return this.hosted(page);
  };

  preview = async (landingPageId: string, token: string): Promise<HostedPage | null> => {
    const previewed = this.links.previewed(token);
    if (!previewed || previewed.landingPageId !== landingPageId) return null;
    const page = await this.pages.find(previewed.companyId, landingPageId);
    return page ? this.hosted(page) : null;
  };

  private async hosted(page: HostedPage["page"]): Promise<HostedPage> {
    const [form, company] = await Promise.all([formOfPage(this.forms, page), this.tenancy.findCompany(page.companyId)]);
    return { page, form, companyName: company?.name ?? "" };
  }
}
