import { COMPANY_NOT_FOUND } from "../company/model.js";
import type { CompanyProfileRepository } from "../company/ports.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TrackingSettingsRepository } from "./ports.js";
import { toTrackingSettingsView, type TrackingSettingsView } from "./view.js";

/** GET /tracking-settings: the actor's company's settings, with the reply tracking of its profile. */
export class GetTrackingSettings {
  constructor(
    private readonly settings: TrackingSettingsRepository,
    private readonly companies: CompanyProfileRepository,
  ) {}

  execute = async (actor: Actor): Promise<Result<TrackingSettingsView>> => {
    const [settings, company] = await Promise.all([this.settings.find(actor.companyId), this.companies.find(actor.companyId)]);
    if (!company) return fail(COMPANY_NOT_FOUND);
    return ok(toTrackingSettingsView(settings, company));
  };
}
