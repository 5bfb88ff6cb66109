import type { RequestOptIn } from "../opt-in/request-opt-in.js";
import type { Subscriber } from "../subscribers/model.js";
import type { SubscriberImport } from "./model.js";

/**
 * Asks the contacts an import created to confirm, through the same hook as POST /subscribers, once
 * their chunk is committed: the import's optInMode (or the company's setting for `default`) decides,
 * and only active contacts are asked. The emails are queued for delivery, never sent here.
 */
export class RequestImportOptIns {
  constructor(private readonly requestOptIn: RequestOptIn) {}

  /** Resolves to the number of confirmation emails queued. */
  execute = async (subscriberImport: SubscriberImport, created: readonly Subscriber[]): Promise<number> => {
    const mode = subscriberImport.options.optInMode;
    if (mode === "confirmed") return 0;
    let queued = 0;
    for (const contact of created) {
      if (contact.status !== "active") continue;
      const outcome = await this.requestOptIn.execute(contact, true, mode);
      // Double opt-in does not apply to the company: no other contact of the chunk is asked either.
      if (outcome === null) return queued;
      if (outcome.emailQueued) queued += 1;
    }
    return queued;
  };
}
