import { optInAsked } from "../opt-in/model.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import type { SubscriberImport } from "./model.js";

/**
 * Whether the active contacts an import creates are asked to confirm (double opt-in): the
 * import's optInMode, or the company's setting for `default`. Decided before each chunk's
 * transaction, which then starts their opt-ins and queues their confirmation emails with them.
 */
export class ImportOptIns {
  constructor(private readonly settings: TrackingSettingsRepository) {}

  applies = async (subscriberImport: SubscriberImport): Promise<boolean> => {
    const mode = subscriberImport.options.optInMode;
    if (mode === "confirmed") return false;
    return optInAsked(mode, await this.settings.find(subscriberImport.companyId));
  };
}
