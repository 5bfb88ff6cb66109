import type { Clock } from "../ports/clock.js";
import type { TokenSigner } from "../ports/token-signer.js";
import type { LandingPage } from "./model.js";

export const PREVIEW_PURPOSE = "landing-page-preview";
/** A preview link works this long after the answer that carried it. */
export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

/** A published page's address (decisions.md: `{base_url}/lp/{companyId}/{slug}`). */
export const publicUrlOf = (baseUrl: string, page: Pick<LandingPage, "companyId" | "slug">): string =>
  `${baseUrl}/lp/${encodeURIComponent(page.companyId)}/${encodeURIComponent(page.slug)}`;

/** The addresses a page's record carries; the preview link is signed afresh, expiring, for each answer. */
export class LandingPageLinks {
  constructor(
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  of(page: LandingPage): { url: string; appPublicUrl: string; publicUrl: string; previewUrl: string } {
    const publicUrl = publicUrlOf(this.baseUrl, page);
    const token = this.signer.sign(PREVIEW_PURPOSE, { p: page.id, c: page.companyId }, new Date(this.clock.now().getTime() + PREVIEW_TTL_MS));
    return {
      // No dashboard runs on a self-hosted server: the page's API address stands in for it.
      url: `${this.baseUrl}/api/v1/landing-pages/${encodeURIComponent(page.id)}`,
      appPublicUrl: publicUrl,
      publicUrl,
      previewUrl: `${this.baseUrl}/lp/preview/${encodeURIComponent(page.id)}?token=${encodeURIComponent(token)}`,
    };
  }

  /** The page a preview token names, or null when it is not one this server signed or it has expired. */
  previewed(token: string): { landingPageId: string; companyId: string } | null {
    const payload = this.signer.verify(PREVIEW_PURPOSE, token, this.clock.now());
    return payload && typeof payload.p === "string" && typeof payload.c === "string" ? { landingPageId: payload.p, companyId: payload.c } : null;
  }
}
