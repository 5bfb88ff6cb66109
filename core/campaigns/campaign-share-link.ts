import type { TokenSigner } from "../ports/token-signer.js";
import { token } from "../shared/token.js";

/**
 * A campaign's public view-in-browser link (compat-reference §11 share-link). The URL carries a
 * token signed with the server's key naming the campaign and the live link's random nonce; the
 * row keeps only the nonce, so neither a stored row nor a guessed campaign ID opens anything.
 * One live link per campaign; revoking deletes the row, so its URL stops working at once and
 * sharing again mints a different one.
 */
export interface CampaignShareLink {
  readonly campaignId: string;
  readonly companyId: string;
  readonly nonce: string;
  readonly createdAt: Date;
}

export interface CampaignShareLinkRepository {
  find(companyId: string, campaignId: string): Promise<CampaignShareLink | null>;
  /** The live link of a campaign, whatever its company (the public page knows only the token). */
  findLive(campaignId: string): Promise<CampaignShareLink | null>;
  /** False when the campaign already has a live link (nothing is changed). */
  insert(link: CampaignShareLink): Promise<boolean>;
  /** False when there was no live link. */
  delete(companyId: string, campaignId: string): Promise<boolean>;
}
export const CampaignShareLinkRepository = token<CampaignShareLinkRepository>("lifecycle.CampaignShareLinkRepository");

const PURPOSE = "campaign.share";

/** The signed tokens of share links, and their public URL. */
export class CampaignShareTokens {
  private readonly origin: string;

  constructor(
    private readonly signer: TokenSigner,
    baseUrl: string,
  ) {
    this.origin = baseUrl.replace(/\/+$/, "");
  }

  tokenOf(link: Pick<CampaignShareLink, "campaignId" | "nonce">): string {
    return this.signer.sign(PURPOSE, { c: link.campaignId, n: link.nonce });
  }

  /** `{BASE_URL}/share/campaigns/{token}` (hosts/http/public/shared-emails.ts serves it). */
  urlOf(shareToken: string): string {
    return `${this.origin}/share/campaigns/${shareToken}`;
  }

  /** The campaign and nonce a token names, when this server signed it. */
  read(shareToken: string, now: Date): { readonly campaignId: string; readonly nonce: string } | null {
    const payload = this.signer.verify(PURPOSE, shareToken, now);
    if (!payload || typeof payload.c !== "string" || typeof payload.n !== "string") return null;
    return { campaignId: payload.c, nonce: payload.n };
  }
}
