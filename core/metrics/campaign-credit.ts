import type { CampaignGoal } from "../campaigns/goals.js";
import { asText, valueAt } from "../sequences/property-filters.js";
import { carriesRevenue, revenueCentsOf } from "./conversion-revenue.js";
import { addCredit, NO_CREDIT, type Credit } from "./credit.js";
import type { MetricsWindow } from "./period.js";
import type { EmailMetricsQueries } from "./ports.js";

/**
 * A campaign's credit over its active goals: each goal converts the contacts its sends reached
 * who did the goal's event within the attribution window, and a goal whose property names an
 * amount credits the value each contact's first such event recorded.
 */
export async function campaignCredit(
  queries: EmailMetricsQueries,
  goals: readonly CampaignGoal[],
  selection: { readonly companyId: string; readonly campaignId: string; readonly window: MetricsWindow },
): Promise<{ readonly total: Credit; readonly byGoal: ReadonlyMap<string, number> }> {
  let total = NO_CREDIT;
  const byGoal = new Map<string, number>();
  for (const goal of goals) {
    if (!goal.isActive) continue;
    const target = { eventName: goal.triggerEventName, windowHours: goal.attributionWindowHours };
    const propertyName = goal.eventPropertyName;
    let credit: Credit;
    if (carriesRevenue(propertyName)) {
      const events = await queries.goalEventProperties(selection, target);
      const values = events.map((properties) => valueAt(properties, propertyName));
      const revenueCents = values.reduce<number>(
        (sum, value) => sum + revenueCentsOf(propertyName, value === undefined || value === null ? null : asText(value)),
        0,
      );
      credit = { conversions: events.length, revenueCents };
    } else {
      credit = { conversions: await queries.goalConversions(selection, target), revenueCents: 0 };
    }
    byGoal.set(goal.id, credit.conversions);
    total = addCredit(total, credit);
  }
  return { total, byGoal };
}
