import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SuggestOrganizationIdsCommand } from "./commands.js";
import type { AccountSuggestionRepository } from "./ports.js";
import { ACCOUNT_ATTRIBUTE_PREFIX, type SuggestionJob } from "./suggestion.js";
import { toSuggestionJobView, type SuggestionJobView } from "./view.js";

/** The queue job that advances a suggestion run. */
export const SUGGESTION_JOB_TYPE = "accounts.suggest_organization_ids";
/** Attempts of the queue job before the run is marked failed. */
export const SUGGESTION_MAX_ATTEMPTS = 3;

export const SuggestOrganizationIdsJob = defineJob({
  type: SUGGESTION_JOB_TYPE,
  company: "required",
  payload: t.type({ suggestionJobId: t.string }),
  maxAttempts: SUGGESTION_MAX_ATTEMPTS,
});

const MAX_KEY_LENGTH = 255;
/** Attribute names quoted in the 409 message. */
const NAMES_SHOWN = 5;

/** The route payload (a type alias: it must be assignable to a plain record). */
export type StartedSuggestion = {
  readonly jobId: string;
  readonly alreadyRunning: boolean;
  readonly job: SuggestionJobView;
};

/**
 * Starts an organization-ID suggestion run in the background. One run per property key at a
 * time: while one is queued or running, that run is returned with `alreadyRunning: true` and its
 * own settings.
 */
export class SuggestOrganizationIds {
  constructor(
    private readonly suggestions: AccountSuggestionRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: SuggestOrganizationIdsCommand): Promise<Result<StartedSuggestion>> => {
    const propertyKey = input.propertyKey.trim();
    if (propertyKey.length === 0) return fail(badRequest("propertyKey must not be blank"));
    if (propertyKey.length > MAX_KEY_LENGTH) return fail(badRequest(`propertyKey must be at most ${MAX_KEY_LENGTH} characters`));
    const nameKey = input.nameKey?.trim() || null;
    if (nameKey && nameKey.length > MAX_KEY_LENGTH) return fail(badRequest(`nameKey must be at most ${MAX_KEY_LENGTH} characters`));

    const clashing = await this.suggestions.accountAttributeNames(actor.companyId, NAMES_SHOWN);
    if (clashing.length > 0) {
      return fail(
        conflict(
          `Contacts already use custom attributes beginning with '${ACCOUNT_ATTRIBUTE_PREFIX}' (${clashing.join(", ")}): ` +
            "rename them before creating accounts, whose fields sequences read as account.*",
        ),
      );
    }

    const now = this.clock.now();
    const candidate: SuggestionJob = {
      id: this.ids.next("acsj"),
      companyId: actor.companyId,
      settings: { source: input.source ?? "event", propertyKey, nameKey },
      state: "queued",
      result: null,
      error: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    };
    const { job, alreadyRunning } = await this.suggestions.startOrFindActive(candidate);
    if (!alreadyRunning) await this.enqueue(job, now);
    return ok({ jobId: job.id, alreadyRunning, job: toSuggestionJobView(job) });
  };

  private async enqueue(job: SuggestionJob, now: Date): Promise<void> {
    try {
      await this.jobs.enqueue(
        SuggestOrganizationIdsJob.request({ suggestionJobId: job.id }, { companyId: job.companyId, singletonKey: `${SUGGESTION_JOB_TYPE}:${job.id}` }),
      );
    } catch (error) {
      // Never leave a run queued with nothing to advance it: the key would stay taken.
      await this.suggestions.settle(job.companyId, job.id, { state: "failed", error: "The run could not be queued; start it again" }, now);
      throw error;
    }
  }
}
