import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { LandingDomainCommand } from "./commands.js";
import { isServiceDomain, type LandingDomain } from "./custom-domain.js";
import { toLandingDomainView } from "./domain-view.js";
import { LANDING_PAGE_NOT_FOUND } from "./errors.js";
import type { LandingPageLinks } from "./page-links.js";
import type { LandingDomainRepository, LandingPageRepository } from "./ports.js";
import { domainInUse, type LandingDomainAnswer, type VerifyLandingDomain } from "./verify-landing-domain.js";
import { toLandingPageView } from "./view.js";

const usedElsewhere = (domain: string) => conflict(`The domain ${domain} is already used by another of your landing page domains`);

/**
 * POST and PUT /landing-pages/domain (the company's domain: every published page at /{slug}) and
 * POST /landing-pages/{id}/domain (the page alone at /): claims the name, with the records that
 * prove it, in place of the target's earlier domain. Claiming the same name again keeps its
 * token, so records already published stay right. `verify` checks DNS at once.
 */
export class ClaimLandingDomain {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly domains: LandingDomainRepository,
    private readonly verify: VerifyLandingDomain,
    private readonly ids: IdGenerator,
    private readonly tokens: RandomTokens,
    private readonly clock: Clock,
    private readonly links: LandingPageLinks,
    private readonly serviceHost: string,
  ) {}

  execute = async (actor: Actor, landingPageId: string | null, input: LandingDomainCommand): Promise<Result<LandingDomainAnswer>> => {
    const page = landingPageId === null ? null : await this.pages.find(actor.companyId, landingPageId);
    if (landingPageId !== null && !page) return fail(LANDING_PAGE_NOT_FOUND);
    const name = input.domain;
    if (isServiceDomain(name, this.serviceHost)) return fail(badRequest(`${name} belongs to this service; use a domain of your own`));
    const held = await this.domains.verifiedByName(name);
    if (held && held.companyId !== actor.companyId) return fail(domainInUse(name));

    let domain = await this.domains.forTarget(actor.companyId, landingPageId);
    if (domain?.domain !== name) {
      const now = this.clock.now();
      domain = {
        id: this.ids.next("ldom"),
        companyId: actor.companyId,
        landingPageId,
        domain: name,
        verificationToken: this.tokens.next(),
        status: "pending",
        lastCheck: null,
        verifiedAt: null,
        lastCheckedAt: null,
        createdAt: now,
        updatedAt: now,
      } satisfies LandingDomain;
      if ((await this.domains.replace(domain)) === "taken") return fail(usedElsewhere(name));
    }
    if (input.verify === true) {
      const checked = await this.verify.check(domain);
      if (checked._tag === "Left") return checked;
      domain = checked.right;
    }
    return ok({ landingPage: page ? toLandingPageView(page, this.links) : null, domain: toLandingDomainView(domain, this.serviceHost) });
  };
}
