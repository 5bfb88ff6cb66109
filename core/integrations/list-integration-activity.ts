import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import { ACTIVITY_WINDOW_HOURS, activitySince } from "./activity-window.js";
import { DEFAULT_ACTIVITY_LIMIT, type ActivityQuery } from "./commands.js";
import { isProvider } from "./model.js";
import type { IntegrationDeliveryRepository } from "./ports.js";
import { toActivityView, type ActivityView } from "./view.js";

export interface IntegrationActivity {
  readonly activity: ActivityView[];
  readonly windowHours: number;
  readonly note: string;
}

/** GET /integrations/activity: the webhooks received in the last 24 hours, newest first, and what became of each. */
export class ListIntegrationActivity {
  constructor(
    private readonly deliveries: IntegrationDeliveryRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, query: ActivityQuery): Promise<Result<IntegrationActivity>> => {
    const provider = query.provider?.toLowerCase();
    // An unknown provider has no deliveries: an empty page, as for any filter that matches nothing.
    const rows =
      provider !== undefined && !isProvider(provider)
        ? []
        : await this.deliveries.list(actor.companyId, {
            integrationId: query.integrationId,
            provider,
            status: query.status,
            since: activitySince(this.clock.now()),
            limit: query.limit ?? DEFAULT_ACTIVITY_LIMIT,
          });
    return ok({
      activity: rows.map(toActivityView),
      windowHours: ACTIVITY_WINDOW_HOURS,
      note: `Webhooks received in the last ${ACTIVITY_WINDOW_HOURS} hours, newest first. A redelivery of an event already received is answered 200 and not listed again.`,
    });
  };
}
