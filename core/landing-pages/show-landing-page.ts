import type { FormRepository } from "../forms/ports.js";
import type { Clock } from "../ports/clock.js";
import { isMachineAgent } from "../tracking/machine-engagement.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { hostedPage, type HostedPage } from "./hosted-page.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingDomainRepository, LandingPageRepository } from "./ports.js";

/** Who asks for a page: HEAD requests are not views, crawlers' and previewers' are counted apart. */
export interface PageVisit {
  readonly method: string;
  readonly userAgent: string | null;
}

/**
 * The public pages: a published page at its publicUrl or on a verified custom domain (a person's
 * visit counts as a view), and any page, draft too, through a valid preview link (never
 * counted). Null: a 404.
 */
export class ShowLandingPage {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly forms: FormRepository,
    private readonly tenancy: TenancyRepository,
    private readonly links: LandingPageLinks,
    private readonly domains: LandingDomainRepository,
    private readonly clock: Clock,
  ) {}

  published = async (companyId: string, slug: string, visit: PageVisit): Promise<HostedPage | null> => {
    const page = await this.pages.findPublished(companyId, slug);
    return page ? this.visited(page, visit) : null;
  };

  /**
   * A request to a verified custom domain: its page at `/` on a page's domain, a page by its slug
   * on the company's domain. `undefined`: the host is no custom domain (the request goes on to
   * the service's own routes).
   */
  onDomain = async (host: string, slug: string | null, visit: PageVisit): Promise<HostedPage | null | undefined> => {
    const domain = await this.domains.verifiedByName(host.toLowerCase());
    if (!domain) return undefined;
    if (domain.landingPageId === null) return slug === null ? null : this.published(domain.companyId, slug, visit);
    if (slug !== null) return null;
    const page = await this.pages.find(domain.companyId, domain.landingPageId);
    return page?.status === "published" ? this.visited(page, visit) : null;
  };

  preview = async (landingPageId: string, token: string): Promise<HostedPage | null> => {
    const previewed = this.links.previewed(token);
    if (!previewed || previewed.landingPageId !== landingPageId) return null;
    const page = await this.pages.find(previewed.companyId, landingPageId);
    return page ? this.hosted(page) : null;
  };

  private async visited(page: HostedPage["page"], visit: PageVisit): Promise<HostedPage> {
    if (visit.method.toUpperCase() !== "HEAD") {
      await this.pages.countView(page.companyId, page.id, this.clock.now(), isMachineAgent(visit.userAgent) ? "bot" : "person");
    }
    return this.hosted(page);
  }

  private hosted(page: HostedPage["page"]): Promise<HostedPage> {
    return hostedPage(this.forms, this.tenancy, page);
  }
}
