import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexAccountEventRepository, KnexAccountRepository, KnexAccountSuggestionRepository } from "../../adapters/knex/repositories/account-repository.js";
import { AddAccountMember } from "../../core/accounts/add-account-member.js";
import { GetAccount } from "../../core/accounts/get-account.js";
import { GetSuggestionJob } from "../../core/accounts/get-suggestion-job.js";
import { AccountEventRepository, AccountRepository, AccountSuggestionRepository } from "../../core/accounts/ports.js";
import { RecordAccountEvent } from "../../core/accounts/record-account-event.js";
import { RunOrganizationIdSuggestion } from "../../core/accounts/run-organization-id-suggestion.js";
import { SuggestOrganizationIds, SuggestOrganizationIdsJob } from "../../core/accounts/suggest-organization-ids.js";
import { UpsertAccount } from "../../core/accounts/upsert-account.js";
import { RecordCustomEvent } from "../../core/events/record-custom-event.js";
import { RequestOptIn } from "../../core/opt-in/request-opt-in.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Accounts, account events and organization-ID suggestions: repositories, use cases, job handlers. */
export const accountsModule = new ContainerModule((container) => {
  bindClass(container, KnexAccountRepository, [Database]);
  container.bind<AccountRepository>(AccountRepository).toService(KnexAccountRepository);
  bindClass(container, KnexAccountEventRepository, [Database]);
  container.bind<AccountEventRepository>(AccountEventRepository).toService(KnexAccountEventRepository);
  bindClass(container, KnexAccountSuggestionRepository, [Database]);
  container.bind<AccountSuggestionRepository>(AccountSuggestionRepository).toService(KnexAccountSuggestionRepository);

  bindClass(container, UpsertAccount, [AccountRepository, IdGenerator, Clock]);
  bindClass(container, GetAccount, [AccountRepository]);
  bindClass(container, AddAccountMember, [AccountRepository, SubscriberRepository, SaveContact, RequestOptIn, Clock]);
  bindClass(container, RecordAccountEvent, [AccountRepository, AccountEventRepository, SubscriberRepository, RecordCustomEvent, IdGenerator, Clock]);
  bindClass(container, SuggestOrganizationIds, [AccountSuggestionRepository, JobQueue, IdGenerator, Clock]);
  bindClass(container, GetSuggestionJob, [AccountSuggestionRepository]);
  bindClass(container, RunOrganizationIdSuggestion, [AccountSuggestionRepository, AccountRepository, IdGenerator, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(SuggestOrganizationIdsJob, (work, job) => container.get(RunOrganizationIdSuggestion).runJob(work, job));
  return handlers;
}
