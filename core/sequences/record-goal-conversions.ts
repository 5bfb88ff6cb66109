import type { ContactEvent } from "../events/contact-events.js";
import type { GoalRepository } from "./goal-ports.js";
import { asText, valueAt } from "./property-filters.js";

/**
 * A recorded event reaches the active event goals waiting for its name: each goal's sequence is
 * credited with a conversion when the contact is in it, or left it within the goal's attribution
 * window. One conversion per goal and enrollment; history (events over an hour old) converts nothing.
 */
export class RecordGoalConversions {
  constructor(private readonly goals: GoalRepository) {}

  /** The listener of recorded custom events (ContactEvents). Resolves to the number of conversions recorded. */
  onEvent = async (event: ContactEvent): Promise<number> => {
    if (event.historical) return 0;
    const goals = await this.goals.activeEventGoals(event.companyId, event.name);
    let recorded = 0;
    for (const goal of goals) {
      const enrollmentId = await this.goals.attributableEnrollment(
        goal.companyId,
        goal.sequenceId,
        event.subscriberId,
        event.occurredAt,
        goal.attributionWindowHours,
      );
      if (!enrollmentId) continue;
      const value = goal.eventPropertyName === null ? undefined : valueAt(event.properties, goal.eventPropertyName);
      const converted = await this.goals.recordConversion({
        goalId: goal.id,
        enrollmentId,
        companyId: goal.companyId,
        subscriberId: event.subscriberId,
        value: value === undefined || value === null ? null : asText(value),
        convertedAt: event.occurredAt,
      });
      if (converted) recorded += 1;
    }
    return recorded;
  };
}
