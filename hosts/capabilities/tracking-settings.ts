import { ContainerModule } from "inversify";
import { KnexTrackingSettingsRepository } from "../../adapters/knex/repositories/tracking-settings-repository.js";
import { CompanyProfileRepository } from "../../core/company/ports.js";
import { TemplateRepository } from "../../core/emails/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { GetTrackingSettings } from "../../core/tracking-settings/get-tracking-settings.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { UpdateTrackingSettings } from "../../core/tracking-settings/update-tracking-settings.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** A company's tracking and consent settings, read by the senders. */
export const trackingSettingsModule = new ContainerModule((container) => {
  bindClass(container, KnexTrackingSettingsRepository, [Database]);
  container.bind<TrackingSettingsRepository>(TrackingSettingsRepository).toService(KnexTrackingSettingsRepository);
  bindClass(container, GetTrackingSettings, [TrackingSettingsRepository, CompanyProfileRepository]);
  bindClass(container, UpdateTrackingSettings, [TrackingSettingsRepository, TemplateRepository, GetTrackingSettings, Clock]);
});
