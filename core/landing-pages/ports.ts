import { token } from "../shared/token.js";
import type { LandingDomain } from "./custom-domain.js";
import type { LandingPage } from "./model.js";
import type { LandingHour } from "./page-stats.js";

/** A company's landing pages. Every method names the company; a slug is unique within it. */
export interface LandingPageRepository {
  /** Newest first. */
  list(companyId: string): Promise<LandingPage[]>;
  find(companyId: string, landingPageId: string): Promise<LandingPage | null>;
  findPublished(companyId: string, slug: string): Promise<LandingPage | null>;
  slugTaken(companyId: string, slug: string): Promise<boolean>;
  insert(page: LandingPage): Promise<"inserted" | "slug_taken">;
  /** Name, slug, status, content and their times; never the counts. */
  update(page: LandingPage): Promise<"updated" | "not_found" | "slug_taken">;
  delete(companyId: string, landingPageId: string): Promise<boolean>;
  /**
   * One more view of a published page, in the hour of `at`: a person's counts in the page's
   * viewCount too, a crawler's only in the hour's botViews.
   */
  countView(companyId: string, landingPageId: string, at: Date, visitor: "person" | "bot"): Promise<void>;
  /** One more signup through a published page, in the hour of `at`; false when it is not (or no longer) published. */
  countConversion(companyId: string, landingPageId: string, at: Date): Promise<boolean>;
  /** The page's hours with any traffic from the hour starting at `from` to `to`, oldest first. */
  hours(companyId: string, landingPageId: string, from: Date, to: Date): Promise<LandingHour[]>;
}
export const LandingPageRepository = token<LandingPageRepository>("lifecycle.LandingPageRepository");

/** Custom domains of landing pages (migration 0045). */
export interface LandingDomainRepository {
  /** The company's domain (no page) or the page's, when it has one. */
  forTarget(companyId: string, landingPageId: string | null): Promise<LandingDomain | null>;
  /** Whoever holds the name verified (any company): the domain a request's Host reaches. */
  verifiedByName(domain: string): Promise<LandingDomain | null>;
  /** Stores a new claim in place of the target's earlier one; `taken`: the company claims the name for another target. */
  replace(domain: LandingDomain): Promise<"saved" | "taken">;
  /** Status, check and times; `taken`: another company verified the name first. */
  update(domain: LandingDomain): Promise<"updated" | "taken">;
  delete(companyId: string, id: string): Promise<boolean>;
}
export const LandingDomainRepository = token<LandingDomainRepository>("lifecycle.LandingDomainRepository");
