import type { WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { Job } from "../ports/job-queue.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { AccountRepository, AccountSuggestionRepository } from "./ports.js";
import type { SuggestOrganizationIdsJob } from "./suggest-organization-ids.js";
import { EVENT_WINDOW_DAYS, planAccounts, type SuggestionResult, type SuggestionSettings } from "./suggestion.js";

const DAY_MS = 86_400_000;

/**
 * The background half of an organization-ID suggestion: turns Accounts on, reads who was seen
 * with which organization ID, and creates the missing accounts with their members. Accounts that
 * exist keep their names, domains and member roles; only missing members are added, as
 * `member`. Nothing is published, so no email, sync rule or sequence reacts. Running it again
 * (a retry after a crash, or a new run) changes nothing that is already there.
 */
export class RunOrganizationIdSuggestion {
  constructor(
    private readonly suggestions: AccountSuggestionRepository,
    private readonly accounts: AccountRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The job handler: a failure is retried by the queue, and settles the run as failed on the last attempt. */
  runJob = ({ companyId, payload: { suggestionJobId } }: WorkOf<typeof SuggestOrganizationIdsJob>, job: Job): Promise<void> =>
    onLastAttempt(
      job,
      () => this.execute(companyId, suggestionJobId),
      async () => {
        await this.suggestions.settle(companyId, suggestionJobId, { state: "failed", error: "The suggestion run failed; start it again" }, this.clock.now());
      },
    );

  execute = async (companyId: string, suggestionJobId: string): Promise<void> => {
    const job = await this.suggestions.markRunning(companyId, suggestionJobId, this.clock.now());
    if (!job) return;
    const result = await this.suggest(job.companyId, job.settings);
    await this.suggestions.settle(job.companyId, job.id, { state: "completed", result }, this.clock.now());
  };

  private async suggest(companyId: string, settings: SuggestionSettings): Promise<SuggestionResult> {
    await this.suggestions.enableAccounts(companyId);
    const since = new Date(this.clock.now().getTime() - EVENT_WINDOW_DAYS * DAY_MS);
    const sightings = await this.suggestions.sightings(companyId, settings, since);
    const names = settings.nameKey ? await this.suggestions.names(companyId, { ...settings, nameKey: settings.nameKey }, since) : [];
    const plan = planAccounts(sightings, names);

    let accountsCreated = 0;
    let membersAdded = 0;
    for (const suggested of plan.accounts) {
      const now = this.clock.now();
      const { accountId, created } = await this.accounts.ensureSuggested({
        id: this.ids.next("acct"),
        companyId,
        externalId: suggested.externalId,
        name: suggested.name,
        domain: suggested.domain,
        attributes: {},
        createdAt: now,
        updatedAt: now,
      });
      if (created) accountsCreated += 1;
      membersAdded += await this.accounts.addMembers(companyId, accountId, suggested.subscriberIds, now);
    }
    return {
      organizationIds: plan.accounts.length,
      accountsCreated,
      accountsExisting: plan.accounts.length - accountsCreated,
      membersAdded,
      contactsSeen: plan.contactsSeen,
      valuesSkipped: plan.valuesSkipped,
    };
  }
}
