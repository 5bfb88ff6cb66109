import type { Clock } from "../ports/clock.js";
import { SEQUENCE_NOT_FOUND } from "../sequences/model.js";
import type { SequenceRepository } from "../sequences/ports.js";
import type { Actor } from "../shared/actor.js";
import type { PagePagination } from "../shared/page-pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import { pageOfEvents, type CampaignEventItem } from "./list-campaign-events.js";
import { resolveWindow } from "./period.js";
import type { EmailMetricsQueries } from "./ports.js";
import type { SequenceEventsQuery } from "./sequence-metrics-commands.js";

/**
 * GET /metrics/sequences/{sequenceId}/events: as the campaign events log, over the sequence's
 * sends (test sends never), or one step's with automationNodeId; each event names its step.
 */
export class ListSequenceEvents {
  constructor(
    private readonly queries: EmailMetricsQueries,
    private readonly sequences: SequenceRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (
    actor: Actor,
    sequenceId: string,
    query: SequenceEventsQuery,
  ): Promise<Result<{ events: CampaignEventItem[]; pagination: PagePagination }>> => {
    const window = resolveWindow(query, this.clock.now(), "all");
    if (window._tag === "Left") return window;
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const sends = { companyId: actor.companyId, automationId: sequence.id, automationNodeId: query.automationNodeId };
    return ok(await pageOfEvents(this.queries, sends, window.right, query));
  };
}
