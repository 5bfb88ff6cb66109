import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { engagementOf, type TrackingRequest } from "./engagement-request.js";
import type { EngagementRepository } from "./ports.js";
import type { TrackingTokens } from "./tracking-tokens.js";

/**
 * A request for a send's open pixel: records an open (classified person or machine) unless the
 * token is not ours or the send does not track opens. True when an open was recorded.
 */
export class RecordOpen {
  constructor(
    private readonly tokens: TrackingTokens,
    private readonly engagements: EngagementRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (request: TrackingRequest): Promise<boolean> => {
    const now = this.clock.now();
    const token = this.tokens.readOpen(request.token, now);
    if (!token) return false;
    const send = await this.engagements.findSend(token.sendId);
    if (!send?.openTracking) return false;
    await this.engagements.recordEngagement(engagementOf(send, "open", null, request, now, this.ids));
    return true;
  };
}
