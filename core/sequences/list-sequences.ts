import type { Actor } from "../shared/actor.js";
import { offsetPagination, type OffsetPagination } from "../shared/offset-pagination.js";
import { ok, type Result } from "../shared/result.js";
import type { ListSequencesQuery } from "./commands.js";
import type { SequenceRepository } from "./ports.js";
import { toSequenceSummaryView, type SequenceSummaryView } from "./view.js";

/** GET /sequences: newest first; without limit and offset, every sequence (compat-reference §10). */
export class ListSequences {
  constructor(private readonly sequences: SequenceRepository) {}

  execute = async (actor: Actor, query: ListSequencesQuery): Promise<Result<{ sequences: SequenceSummaryView[]; pagination: OffsetPagination }>> => {
    const limit = query.limit ?? null;
    const offset = query.offset ?? 0;
    const labels = query.labels
      ?.split(",")
      .map((label) => label.trim())
      .filter((label) => label !== "");
    const page = await this.sequences.list(actor.companyId, {
      status: query.status,
      search: query.search,
      labels: labels && labels.length > 0 ? labels : undefined,
      limit,
      offset,
    });
    return ok({ sequences: page.sequences.map(toSequenceSummaryView), pagination: offsetPagination(limit, offset, page.sequences.length, page.total) });
  };
}
