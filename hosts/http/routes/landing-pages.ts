import { map } from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { ClaimLandingDomain } from "../../../core/landing-pages/claim-landing-domain.js";
import {
  CreateLandingPageCommand,
  DuplicateLandingPageCommand,
  LandingDomainCommand,
  LandingPagePath,
  LandingStatsQuery,
  RenderLandingPageCommand,
  UpdateLandingPageCommand,
} from "../../../core/landing-pages/commands.js";
import { CreateLandingPage } from "../../../core/landing-pages/create-landing-page.js";
import { DeleteLandingPage } from "../../../core/landing-pages/delete-landing-page.js";
import { DuplicateLandingPage } from "../../../core/landing-pages/duplicate-landing-page.js";
import { GetLandingPage } from "../../../core/landing-pages/get-landing-page.js";
import { DEFAULT_STATS_PERIOD, GetLandingPageStats } from "../../../core/landing-pages/get-landing-page-stats.js";
import { ListLandingPages } from "../../../core/landing-pages/list-landing-pages.js";
import type { HostedPage } from "../../../core/landing-pages/hosted-page.js";
import { LANDING_PAGE_TEMPLATES } from "../../../core/landing-pages/model.js";
import { LandingDomainView } from "../../../core/landing-pages/domain-view.js";
import { HOURLY_UP_TO_MS } from "../../../core/landing-pages/page-stats.js";
import { PublishLandingPage } from "../../../core/landing-pages/publish-landing-page.js";
import { UnpublishLandingPage } from "../../../core/landing-pages/unpublish-landing-page.js";
import { RemoveLandingDomain } from "../../../core/landing-pages/remove-landing-domain.js";
import { RenderLandingPage } from "../../../core/landing-pages/render-landing-page.js";
import { LandingStatsView } from "../../../core/landing-pages/stats-view.js";
import { UpdateLandingPage } from "../../../core/landing-pages/update-landing-page.js";
import { VerifyLandingDomain } from "../../../core/landing-pages/verify-landing-domain.js";
import { LandingPageView } from "../../../core/landing-pages/view.js";
import { MAX_RANGE_DAYS } from "../../../core/metrics/period.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { landingPageHtml } from "../public/landing-page-html.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const CONTENT_RULES =
  "content = {version, template, seo {title, description}, theme {primaryColor, backgroundColor, textColor, fontFamily}, blocks[]}; each block has an id, a type (heading, text, image, button, list, form, footer) and a slot (top, hero, form, body, footer); exactly one footer block, at most one form block, whose formId must be one of the company's forms (400 otherwise).";

const DOMAIN_RULES =
  "Publish the records listed in domain.records (a TXT record under _lc-verify.{domain} with the token proves the domain is yours; a CNAME to this service routes visitors), then verify (verify: true, or the verify route). Claiming the same domain again keeps its token; another domain replaces the earlier one. 400 for this service's own host, 409 when another workspace verified the domain or another of your targets uses it.";

const DomainAnswer = view({ landingPage: t.union([LandingPageView, t.null]), domain: t.union([LandingDomainView, t.null]) });

/** Hosted landing pages (spec, Landing page; compat-reference §19). Visitors see them at publicUrl (hosts/http/public/landing-pages.ts). */
export const landingPagesRoutes = routeModule(
  {
    listPages: ListLandingPages,
    getPage: GetLandingPage,
    createPage: CreateLandingPage,
    updatePage: UpdateLandingPage,
    publishPage: PublishLandingPage,
    unpublishPage: UnpublishLandingPage,
    duplicatePage: DuplicateLandingPage,
    deletePage: DeleteLandingPage,
    claimDomain: ClaimLandingDomain,
    verifyDomain: VerifyLandingDomain,
    removeDomain: RemoveLandingDomain,
    pageStats: GetLandingPageStats,
    renderPage: RenderLandingPage,
  },
  (uses) => [
    // Before the routes of one page: `domain` is not a page ID.
    ...(["post", "put"] as const).map((method) =>
      defineRoute({
        method,
        path: "/landing-pages/domain",
        tag: "Landing pages",
        scopes: ["widgets:write"],
        summary: `The company's custom domain: once verified, every published page is served at https://{domain}/{slug}. ${DOMAIN_RULES}`,
        body: LandingDomainCommand,
        response: DomainAnswer,
        errors: [400, 409, 422],
        handle: async ({ input, actor }) => uses.claimDomain.execute(actor, null, input.body),
      }),
    ),
    defineRoute({
      method: "post",
      path: "/landing-pages/:landingPageId/domain",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary: `The page's own custom domain: once verified, the published page is served at https://{domain}/. ${DOMAIN_RULES}`,
      params: LandingPagePath,
      body: LandingDomainCommand,
      response: DomainAnswer,
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => uses.claimDomain.execute(actor, input.params.landingPageId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/landing-pages/:landingPageId/domain/verify",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary:
        "Look the page's domain records up now; verified when the ownership TXT record holds the token. 404 'Custom domain not found' when the page has none",
      params: LandingPagePath,
      response: DomainAnswer,
      errors: [404, 409],
      handle: async ({ input, actor }) => uses.verifyDomain.execute(actor, input.params.landingPageId),
    }),
    defineRoute({
      method: "delete",
      path: "/landing-pages/:landingPageId/domain",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary: "Stop serving the page on its custom domain (at once); its publicUrl stays",
      params: LandingPagePath,
      response: DomainAnswer,
      errors: [404],
      handle: async ({ input, actor }) => uses.removeDomain.execute(actor, input.params.landingPageId),
    }),
    defineRoute({
      method: "get",
      path: "/landing-pages",
      tag: "Landing pages",
      scopes: ["widgets:read"],
      summary: "List the company's landing pages, newest first",
      response: view({ landingPages: t.readonlyArray(LandingPageView) }),
      handle: async ({ actor }) => under("landingPages")(await uses.listPages.execute(actor)),
    }),
    defineRoute({
      method: "get",
      path: "/landing-pages/:landingPageId",
      tag: "Landing pages",
      scopes: ["widgets:read"],
      summary: "One landing page, with its publicUrl and a signed previewUrl valid for 24 hours; 404 'Landing page not found'",
      params: LandingPagePath,
      response: view({ landingPage: LandingPageView }),
      errors: [404],
      handle: async ({ input, actor }) => under("landingPage")(await uses.getPage.execute(actor, input.params.landingPageId)),
    }),
    defineRoute({
      method: "post",
      path: "/landing-pages",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary: `Create a draft landing page from a template (${LANDING_PAGE_TEMPLATES.join(", ")}; from-scratch by default) or from content. A slug made from the name is made unique; a slug given that is taken is 409. ${CONTENT_RULES}`,
      body: CreateLandingPageCommand,
      response: view({ landingPage: LandingPageView }),
      errors: [400, 409, 422],
      handle: async ({ input, actor }) => under("landingPage")(await uses.createPage.execute(actor, input.body)),
    }),
    defineRoute({
      method: "put",
      path: "/landing-pages/:landingPageId",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary: `Change at least one of name, slug and content; a published page shows the change at once. ${CONTENT_RULES}`,
      params: LandingPagePath,
      body: UpdateLandingPageCommand,
      response: view({ landingPage: LandingPageView }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => under("landingPage")(await uses.updatePage.execute(actor, input.params.landingPageId, input.body)),
    }),
    defineRoute({
      method: "post",
      path: "/landing-pages/:landingPageId/publish",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary: "Save the optional name, slug and content, then serve the page at its publicUrl (status published)",
      params: LandingPagePath,
      body: UpdateLandingPageCommand,
      response: view({ landingPage: LandingPageView }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => under("landingPage")(await uses.publishPage.execute(actor, input.params.landingPageId, input.body)),
    }),
    defineRoute({
      method: "post",
      path: "/landing-pages/:landingPageId/unpublish",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary:
        "Save the optional name, slug and content, then take the page down at once (status draft; its publicUrl answers 404, its previewUrl still shows it)",
      params: LandingPagePath,
      body: UpdateLandingPageCommand,
      response: view({ landingPage: LandingPageView }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => under("landingPage")(await uses.unpublishPage.execute(actor, input.params.landingPageId, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/landing-pages/:landingPageId/stats",
      tag: "Landing pages",
      scopes: ["widgets:read"],
      summary:
        `A page's views and conversions over period (1h, 24h, 7d, 30d, 90d; ${DEFAULT_STATS_PERIOD} by default) or start and end (ISO 8601, together, at most ${MAX_RANGE_DAYS} days, winning over period; 400 otherwise). ` +
        `Counted by the hour (UTC), so a window covers every hour it touches; series has one bucket per hour for windows up to ${HOURLY_UP_TO_MS / 3_600_000} hours, per day (UTC) beyond, empty ones included. ` +
        "views are people's (crawlers, link previewers and HEAD requests are not views), with crawlers' added when includeBots=true; botViews always counts crawlers apart. conversionRate is conversions per 100 views, two decimals. Traffic before this server kept hourly stats is only in the page's viewCount and conversionCount. 404 'Landing page not found'",
      params: LandingPagePath,
      query: LandingStatsQuery,
      response: LandingStatsView,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.pageStats.execute(actor, input.params.landingPageId, input.query),
    }),
    defineRoute({
      method: "post",
      path: "/landing-pages/:landingPageId/render",
      tag: "Landing pages",
      scopes: ["widgets:read"],
      summary: `The page's complete HTML as visitors get it, from its stored content or from the content given (checked as PUT checks it; nothing is saved, no view counted); a draft's is marked as a preview and not for indexing. ${CONTENT_RULES}`,
      params: LandingPagePath,
      body: RenderLandingPageCommand,
      response: view({ landingPageId: Id, html: t.string }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) =>
        map((hosted: HostedPage) => ({ landingPageId: hosted.page.id, html: landingPageHtml(hosted, { preview: hosted.page.status !== "published" }) }))(
          await uses.renderPage.execute(actor, input.params.landingPageId, input.body),
        ),
    }),
    defineRoute({
      method: "post",
      path: "/landing-pages/:landingPageId/duplicate",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary: "A draft copy of the page's content (name '<name> (copy)' and a free slug unless given), with no views or conversions",
      params: LandingPagePath,
      body: DuplicateLandingPageCommand,
      response: view({ landingPage: LandingPageView }),
      errors: [404, 409, 422],
      handle: async ({ input, actor }) => under("landingPage")(await uses.duplicatePage.execute(actor, input.params.landingPageId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/landing-pages/:landingPageId",
      tag: "Landing pages",
      scopes: ["widgets:write"],
      summary: "Delete a landing page; its public URL answers 404 at once",
      params: LandingPagePath,
      response: view({ landingPageId: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deletePage.execute(actor, input.params.landingPageId),
    }),
  ],
);
