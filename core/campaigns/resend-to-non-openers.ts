import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { SegmentRepository } from "../segments/ports.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { campaignWithStats } from "./campaign-stats.js";
import { CAMPAIGN_NOT_FOUND, NO_SCHEDULE, type Campaign, type TargetLists } from "./model.js";
import type { CampaignAudienceQueries, CampaignRepository } from "./ports.js";
import { resolveAudience } from "./resolve-audience.js";
import { INVALID_CAMPAIGN_STATE } from "./transitions.js";
import type { CampaignView } from "./view.js";

/** How long after a send finished its opens are counted before the non-openers are known. */
export const NON_OPENERS_WAIT_HOURS = 6;
const HOUR_MS = 3_600_000;

const MAX_NAME = 255;
const SUFFIX = " (non-openers)";

/**
 * Contacts the campaign was sent to (test sends aside) who have not opened it: segment filters
 * over its sends, so the audience is worked out when the draft is sent, not frozen now.
 * Opens are people's: a scanner's or a mail proxy's open does not make an opener.
 */
export const nonOpenersOf = (campaignId: string): TargetLists => ({
  type: "filtered",
  filters: [
    { field: "emailSent", operator: "is", value: `campaign:${campaignId}` },
    { field: "emailOpened", operator: "is_not", value: `campaign:${campaignId}` },
  ],
  filterJoinOperator: "and",
});

export const IMPORTED_CAMPAIGN = badRequest(
  "This campaign was imported from another provider: its sends and opens are not here, so it cannot be resent to non-openers",
);

/**
 * POST /campaigns/{id}/resend-to-non-openers: a new draft of the same email (content, identity,
 * data, labels) whose audience is the campaign's recipients who did not open it, allowed from
 * 6 hours after the send finished. The draft is not scheduled; estimatedNonOpenerCount is how
 * many it would reach now (active, not suppressed, confirmed).
 */
export class ResendToNonOpeners {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly segments: SegmentRepository,
    private readonly audience: CampaignAudienceQueries,
    private readonly metrics: MetricsQueries,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly docsUrl: string,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<{ campaign: CampaignView; estimatedNonOpenerCount: number }>> => {
    const original = await this.campaigns.find(actor.companyId, campaignId);
    if (!original) return fail(CAMPAIGN_NOT_FOUND);
    if (original.source !== null) return fail(IMPORTED_CAMPAIGN);
    if (original.status !== "sent" || !original.sentAt) {
      return fail(
        invalidState(`Campaign is ${original.status}: only a sent campaign can be resent to non-openers`, {
          code: INVALID_CAMPAIGN_STATE,
          extra: { status: original.status },
        }),
      );
    }
    const now = this.clock.now();
    const possibleAt = new Date(original.sentAt.getTime() + NON_OPENERS_WAIT_HOURS * HOUR_MS);
    if (now.getTime() < possibleAt.getTime()) {
      return fail(
        badRequest(
          `Resending to non-openers is possible ${NON_OPENERS_WAIT_HOURS} hours after the send finished, so opens have time to arrive: from ${possibleAt.toISOString()}`,
          { code: "TOO_EARLY", extra: { availableAt: possibleAt.toISOString() } },
        ),
      );
    }

    const draft: Campaign = {
      ...original,
      id: this.ids.next("cmp"),
      name: `${original.name.slice(0, MAX_NAME - SUFFIX.length)}${SUFFIX}`,
      targetLists: nonOpenersOf(original.id),
      status: "draft",
      schedule: { ...NO_SCHEDULE, sendTimeOptimization: original.schedule.sendTimeOptimization, sendTimeWindowHours: original.schedule.sendTimeWindowHours },
      sentAt: null,
      previousOccurrenceId: null,
      externalId: null,
      createdAt: now,
      updatedAt: now,
    };
    const resolved = await resolveAudience(
      { segments: this.segments, audience: this.audience },
      { companyId: actor.companyId, campaignId: draft.id, target: draft.targetLists, now, docsUrl: this.docsUrl },
    );
    if (resolved._tag === "Left") return resolved;
    const estimatedNonOpenerCount = resolved.right.definition ? await this.audience.countRecipients(resolved.right.definition) : 0;
    await this.campaigns.insert(draft);
    return ok({ campaign: await campaignWithStats(this.metrics, draft), estimatedNonOpenerCount });
  };
}
