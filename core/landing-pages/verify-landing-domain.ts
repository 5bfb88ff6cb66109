import type { Clock } from "../ports/clock.js";
import type { DnsResolver } from "../ports/dns-resolver.js";
import type { Actor } from "../shared/actor.js";
import { conflict, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { checkDomainRecord, domainRecordsFor, domainStatusAfter, type LandingDomain } from "./custom-domain.js";
import { LANDING_PAGE_NOT_FOUND } from "./errors.js";
import type { LandingDomainRepository, LandingPageRepository } from "./ports.js";
import type { LandingPageLinks } from "./page-links.js";
import { toLandingDomainView, type LandingDomainView } from "./domain-view.js";
import { toLandingPageView, type LandingPageView } from "./view.js";

export const LANDING_DOMAIN_NOT_FOUND = notFound("Custom domain not found");
export const domainInUse = (domain: string) => conflict(`The domain ${domain} is already connected to another workspace`);

/** What the domain routes answer: the page (null for the company's domain) and its domain. */
export interface LandingDomainAnswer {
  readonly landingPage: LandingPageView | null;
  readonly domain: LandingDomainView | null;
}

/**
 * POST /landing-pages/{id}/domain/verify (and PUT /landing-pages/domain with `verify`): looks the
 * records up and keeps the verdict. Verified, the name is served at once; 409 when another
 * company verified the same name first.
 */
export class VerifyLandingDomain {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly domains: LandingDomainRepository,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly links: LandingPageLinks,
    private readonly serviceHost: string,
  ) {}

  execute = async (actor: Actor, landingPageId: string | null): Promise<Result<LandingDomainAnswer>> => {
    const page = landingPageId === null ? null : await this.pages.find(actor.companyId, landingPageId);
    if (landingPageId !== null && !page) return fail(LANDING_PAGE_NOT_FOUND);
    const domain = await this.domains.forTarget(actor.companyId, landingPageId);
    if (!domain) return fail(LANDING_DOMAIN_NOT_FOUND);
    const checked = await this.check(domain);
    if (checked._tag === "Left") return checked;
    return ok({ landingPage: page ? toLandingPageView(page, this.links) : null, domain: toLandingDomainView(checked.right, this.serviceHost) });
  };

  /** Checks the records of a stored claim and stores the verdict. */
  check = async (domain: LandingDomain): Promise<Result<LandingDomain>> => {
    const checks = await Promise.all(
      domainRecordsFor(domain, this.serviceHost).map(async (record) =>
        checkDomainRecord(record, await (record.type === "TXT" ? this.dns.resolveTxt(record.name) : this.dns.resolveCname(record.name))),
      ),
    );
    const now = this.clock.now();
    const status = domainStatusAfter(domain.status, checks);
    const checked: LandingDomain = {
      ...domain,
      status,
      lastCheck: checks,
      verifiedAt: status === "verified" ? (domain.verifiedAt ?? now) : null,
      lastCheckedAt: now,
      updatedAt: now,
    };
    return (await this.domains.update(checked)) === "taken" ? fail(domainInUse(domain.domain)) : ok(checked);
  };
}
