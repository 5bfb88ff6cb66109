import { token } from "../shared/token.js";
import type { TrackingSettings } from "./model.js";

/** One row of settings per company. */
export interface TrackingSettingsRepository {
  /** The company's saved settings, or the defaults when it saved none. */
  find(companyId: string): Promise<TrackingSettings>;
  /** Sets the given settings (the row is created with the defaults for the rest); the others keep their values, even against a concurrent update. */
  update(companyId: string, changes: Partial<TrackingSettings>, at: Date): Promise<void>;
}
export const TrackingSettingsRepository = token<TrackingSettingsRepository>("lifecycle.TrackingSettingsRepository");
