import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { AccountSuggestionRepository } from "./ports.js";
import { toSuggestionJobView, type SuggestionJobView } from "./view.js";

/** A suggestion run of the company: its state, settings, and result once completed. */
export class GetSuggestionJob {
  constructor(private readonly suggestions: AccountSuggestionRepository) {}

  execute = async (actor: Actor, jobId: string): Promise<Result<SuggestionJobView>> => {
    const job = await this.suggestions.find(actor.companyId, jobId);
    return job ? ok(toSuggestionJobView(job)) : fail(notFound("Suggestion job not found"));
  };
}
