import { ContainerModule } from "inversify";
import { KnexLandingDomainRepository } from "../../adapters/knex/repositories/landing-domain-repository.js";
import { KnexLandingPageRepository } from "../../adapters/knex/repositories/landing-page-repository.js";
import { FormRepository } from "../../core/forms/ports.js";
import { ClaimLandingDomain } from "../../core/landing-pages/claim-landing-domain.js";
import { CreateLandingPage } from "../../core/landing-pages/create-landing-page.js";
import { DeleteLandingPage } from "../../core/landing-pages/delete-landing-page.js";
import { DuplicateLandingPage } from "../../core/landing-pages/duplicate-landing-page.js";
import { GetLandingPage } from "../../core/landing-pages/get-landing-page.js";
import { GetLandingPageStats } from "../../core/landing-pages/get-landing-page-stats.js";
import { LandingContentRules } from "../../core/landing-pages/landing-content.js";
import { LandingPageEdits } from "../../core/landing-pages/landing-page-edits.js";
import { ListLandingPages } from "../../core/landing-pages/list-landing-pages.js";
import { LandingPageLinks } from "../../core/landing-pages/page-links.js";
import { LandingDomainRepository, LandingPageRepository } from "../../core/landing-pages/ports.js";
import { PublishLandingPage } from "../../core/landing-pages/publish-landing-page.js";
import { RemoveLandingDomain } from "../../core/landing-pages/remove-landing-domain.js";
import { RecordLandingConversion } from "../../core/landing-pages/record-landing-conversion.js";
import { RenderLandingPage } from "../../core/landing-pages/render-landing-page.js";
import { ShowLandingPage } from "../../core/landing-pages/show-landing-page.js";
import { UnpublishLandingPage } from "../../core/landing-pages/unpublish-landing-page.js";
import { UpdateLandingPage } from "../../core/landing-pages/update-landing-page.js";
import { VerifyLandingDomain } from "../../core/landing-pages/verify-landing-domain.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { RandomTokens } from "../../core/ports/random-tokens.js";
import { TokenSigner } from "../../core/ports/token-signer.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database, ServiceHost } from "../tokens.js";
import { resolverInForce } from "./resolver-in-force.js";

/** Hosted landing pages: the repositories, the API's use cases (custom domains included) and the public pages. */
export const landingPagesModule = new ContainerModule((container) => {
  bindClass(container, KnexLandingPageRepository, [Database]);
  container.bind<LandingPageRepository>(LandingPageRepository).toService(KnexLandingPageRepository);
  bindClass(container, LandingPageLinks, [TokenSigner, Clock, BaseUrl]);
  bindClass(container, LandingContentRules, [FormRepository]);
  bindClass(container, LandingPageEdits, [LandingPageRepository, LandingContentRules, Clock, LandingPageLinks]);
  bindClass(container, ListLandingPages, [LandingPageRepository, LandingPageLinks]);
  bindClass(container, GetLandingPage, [LandingPageRepository, LandingPageLinks]);
  bindClass(container, CreateLandingPage, [LandingPageRepository, LandingContentRules, TenancyRepository, IdGenerator, Clock, LandingPageLinks]);
  bindClass(container, UpdateLandingPage, [LandingPageEdits]);
  bindClass(container, PublishLandingPage, [LandingPageEdits]);
  bindClass(container, UnpublishLandingPage, [LandingPageEdits]);
  bindClass(container, DuplicateLandingPage, [LandingPageRepository, IdGenerator, Clock, LandingPageLinks]);
  bindClass(container, DeleteLandingPage, [LandingPageRepository]);
  bindClass(container, KnexLandingDomainRepository, [Database]);
  container.bind<LandingDomainRepository>(LandingDomainRepository).toService(KnexLandingDomainRepository);
  bindFactory(container, ServiceHost, (baseUrl: string) => new URL(baseUrl).hostname, [BaseUrl]);
  container
    .bind(VerifyLandingDomain)
    .toDynamicValue(
      (context) =>
        new VerifyLandingDomain(
          context.get<LandingPageRepository>(LandingPageRepository),
          context.get<LandingDomainRepository>(LandingDomainRepository),
          resolverInForce(context),
          context.get<Clock>(Clock),
          context.get(LandingPageLinks),
          context.get<string>(ServiceHost),
        ),
    );
  bindClass(container, ClaimLandingDomain, [
    LandingPageRepository,
    LandingDomainRepository,
    VerifyLandingDomain,
    IdGenerator,
    RandomTokens,
    Clock,
    LandingPageLinks,
    ServiceHost,
  ]);
  bindClass(container, RemoveLandingDomain, [LandingPageRepository, LandingDomainRepository, LandingPageLinks]);
  bindClass(container, ShowLandingPage, [LandingPageRepository, FormRepository, TenancyRepository, LandingPageLinks, LandingDomainRepository, Clock]);
  bindClass(container, RecordLandingConversion, [LandingPageRepository, Clock]);
  bindClass(container, GetLandingPageStats, [LandingPageRepository, Clock]);
  bindClass(container, RenderLandingPage, [LandingPageRepository, LandingContentRules, FormRepository, TenancyRepository]);
});
