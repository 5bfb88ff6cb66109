import { isAmazonUrl } from "../../core/delivery/amazon-url.js";
import type { SnsSubscriptions } from "../../core/delivery/ports.js";

/** Confirms a subscription by visiting its SubscribeURL over https; only Amazon's own URLs are visited. */
export class HttpsSnsSubscriptions implements SnsSubscriptions {
  async confirm(subscribeUrl: string): Promise<boolean> {
    if (!isAmazonUrl(subscribeUrl)) return false;
    const response = await fetch(subscribeUrl, { redirect: "error", signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.ok;
  }
}
