import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { engagementOf, type TrackingRequest } from "./engagement-request.js";
import { isLinkBurst, LINK_BURST_WINDOW_MS } from "./machine-engagement.js";
import type { TrackedSend } from "./model.js";
import type { EngagementRepository } from "./ports.js";
import type { TrackingTokens } from "./tracking-tokens.js";

/**
 * A request for a send's tracked link: the destination this server signed (null for a token
 * it did not sign), after recording the click when the send tracks clicks.
 */
export class RecordClick {
  constructor(
    private readonly tokens: TrackingTokens,
    private readonly engagements: EngagementRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (request: TrackingRequest): Promise<{ url: string } | null> => {
    const now = this.clock.now();
    const token = this.tokens.readClick(request.token, now);
    if (!token) return null;
    const send = await this.engagements.findSend(token.sendId);
    if (send?.clickTracking) await this.record(send, token.url, request, now);
    return { url: token.url };
  };

  /**
   * The link burst is judged after the click is stored, so that of two scanner clicks arriving
   * together the later one sees both and flags them all.
   */
  private async record(send: TrackedSend, url: string, request: TrackingRequest, now: Date): Promise<void> {
    await this.engagements.recordEngagement(engagementOf(send, "click", url, request, now, this.ids));
    const since = new Date(now.getTime() - LINK_BURST_WINDOW_MS);
    const clicks = await this.engagements.clicksSince(send.companyId, send.id, since);
    if (isLinkBurst(clicks, now)) await this.engagements.reclassifyClicks(send.companyId, send.id, since, "all_links");
  }
}
