import type { TrackingTokens } from "./tracking-tokens.js";

/** What the renderer needs to track one send and let its recipient unsubscribe. */
export interface SendTrackingLinks {
  /** `{BASE_URL}/t/o/{token}.gif`: the 1x1 image that records an open. */
  readonly openPixelUrl: string;
  /** An http(s) link becomes `{BASE_URL}/t/c/{token}`; other links (mailto:, tel:, anchors) and unsubscribe links stay as they are. */
  readonly rewriteLink: (url: string) => string;
  /** `{BASE_URL}/u/{token}`: the unsubscribe page (GET) and RFC 8058 one-click target (POST). */
  readonly unsubscribeUrl: string;
}

/** Builds a send's tracking and unsubscribe URLs on the public origin. */
export class TrackingLinks {
  private readonly origin: string;

  constructor(
    private readonly tokens: TrackingTokens,
    baseUrl: string,
  ) {
    this.origin = baseUrl.replace(/\/+$/, "");
  }

  forSend(sendId: string): SendTrackingLinks {
    const unsubscribeUrl = this.unsubscribeUrl(sendId);
    return {
      openPixelUrl: this.openPixelUrl(sendId),
      rewriteLink: (url) => (this.isUnsubscribeUrl(url) ? url : (this.clickUrl(sendId, url) ?? url)),
      unsubscribeUrl,
    };
  }

  openPixelUrl(sendId: string): string {
    return `${this.origin}/t/o/${this.tokens.open(sendId)}.gif`;
  }

  /** Null when the destination is not an http(s) URL (it is then left untracked). */
  clickUrl(sendId: string, url: string): string | null {
    const token = this.tokens.click(sendId, url.trim());
    return token === null ? null : `${this.origin}/t/c/${token}`;
  }

  unsubscribeUrl(sendId: string): string {
    return `${this.origin}/u/${this.tokens.unsubscribe(sendId)}`;
  }

  /** A click on the unsubscribe link is not engagement, and the page must stay one hop away. */
  private isUnsubscribeUrl(url: string): boolean {
    return url.startsWith(`${this.origin}/u/`);
  }
}
