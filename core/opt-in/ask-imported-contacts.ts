import * as t from "io-ts";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { OptInRepository } from "./ports.js";
import type { SendConfirmationEmail } from "./send-confirmation-email.js";

/** The job that emails the contacts an import chunk started unconfirmed. */
export const ASK_IMPORTED_CONTACTS_JOB = "opt_in.ask_imported";

export const AskImportedContactsJob = defineJob({
  type: ASK_IMPORTED_CONTACTS_JOB,
  company: "required",
  payload: t.type({ subscriberIds: t.array(t.string) }),
  maxAttempts: 5,
});

/** The job an import chunk queues in its own transaction, next to the opt-ins it starts. */
export const askImportedContactsJob = (companyId: string, subscriberIds: readonly string[]): JobRequest =>
  AskImportedContactsJob.request({ subscriberIds: [...subscriberIds] }, { companyId });

/**
 * Sends the first confirmation email to contacts an import created unconfirmed. Their opt-ins
 * and this job were written in the chunk's transaction, so a crash before the job runs leaves
 * the job to do it. A contact already emailed (a retry of this job), confirmed, deleted or no
 * longer active is passed over, so a retry never emails anyone twice.
 */
export class AskImportedContacts {
  constructor(
    private readonly optIns: OptInRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly sendEmail: SendConfirmationEmail,
  ) {}

  runJob = async ({ companyId, payload }: WorkOf<typeof AskImportedContactsJob>): Promise<void> => {
    await this.execute(companyId, payload.subscriberIds);
  };

  /** Resolves to the number of confirmation emails queued. */
  execute = async (companyId: string, subscriberIds: readonly string[]): Promise<number> => {
    let queued = 0;
    for (const subscriberId of subscriberIds) {
      const optIn = await this.optIns.find(companyId, subscriberId);
      if (!optIn || optIn.confirmedAt || optIn.lastEmailAt) continue;
      const contact = await this.subscribers.findById(companyId, subscriberId);
      if (!contact || contact.status !== "active") continue;
      if ((await this.sendEmail.execute(contact)).queued) queued += 1;
    }
    return queued;
  };
}
