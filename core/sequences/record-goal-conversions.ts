import type { ContactEvent } from "../events/contact-events.js";
import type { WorkOf } from "../jobs/job-definition.js";
import type { Subscriber } from "../subscribers/model.js";
import { watchedChanges, type RecordAttributeGoalsJob, type WatchedChanges } from "./attribute-goal-jobs.js";
import type { SequenceGoal } from "./goals.js";
import type { GoalRepository } from "./goal-ports.js";
import { asText, valueAt } from "./property-filters.js";

/**
 * Contacts reaching sequence goals: a recorded event reaches the active event goals waiting for
 * its name, a saved change of a field or custom attribute the active attribute_change goals. Each
 * goal's sequence is credited with a conversion when the contact is in it, or left it within the
 * goal's attribution window. One conversion per goal and enrollment; history (events over an hour
 * old) converts nothing.
 */
export class RecordGoalConversions {
  constructor(private readonly goals: GoalRepository) {}

  /** The listener of recorded custom events (ContactEvents). Resolves to the number of conversions recorded. */
  onEvent = async (event: ContactEvent): Promise<number> => {
    if (event.historical) return 0;
    let recorded = 0;
    for (const goal of await this.goals.activeEventGoals(event.companyId, event.name)) {
      const value = goal.eventPropertyName === null ? undefined : valueAt(event.properties, goal.eventPropertyName);
      if (await this.credit(goal, event.subscriberId, event.occurredAt, value)) recorded += 1;
    }
    return recorded;
  };

  /** A contact saved with other fields or attributes: the attribute_change goals whose change it is. Resolves to the number of conversions recorded. */
  onContactChanged = async (before: Subscriber, after: Subscriber, at: Date): Promise<number> => {
    if (!fieldsDiffer(before, after)) return 0;
    const goals = await this.goals.activeAttributeGoals(after.companyId);
    return this.creditChanges(goals, after.id, watchedChanges(before, after, pathsOf(goals)), at);
  };

  /** The job of a background write: the watched values it changed, contact by contact. */
  runJob = async ({ companyId, payload }: WorkOf<typeof RecordAttributeGoalsJob>): Promise<number> => {
    const goals = await this.goals.activeAttributeGoals(companyId);
    let recorded = 0;
    for (const { subscriberId, fields } of payload.changes) recorded += await this.creditChanges(goals, subscriberId, fields, payload.at);
    return recorded;
  };

  /** The fields and custom attributes the company's active attribute_change goals watch: what a background write must report. */
  watchedFields = async (companyId: string): Promise<string[]> => pathsOf(await this.goals.activeAttributeGoals(companyId));

  private async creditChanges(goals: readonly SequenceGoal[], subscriberId: string, changes: WatchedChanges, at: Date): Promise<number> {
    let recorded = 0;
    for (const goal of goals) {
      const change = changes[goal.attributePath ?? ""];
      if (!change || !reachesGoal(goal, change[0], change[1])) continue;
      if (await this.credit(goal, subscriberId, at, change[1])) recorded += 1;
    }
    return recorded;
  }

  private async credit(goal: SequenceGoal, subscriberId: string, at: Date, value: unknown): Promise<boolean> {
    const enrollmentId = await this.goals.attributableEnrollment(goal.companyId, goal.sequenceId, subscriberId, at, goal.attributionWindowHours);
    if (!enrollmentId) return false;
    return this.goals.recordConversion({
      goalId: goal.id,
      enrollmentId,
      companyId: goal.companyId,
      subscriberId,
      value: value === undefined || value === null ? null : asText(value),
      convertedAt: at,
    });
  }
}

const pathsOf = (goals: readonly SequenceGoal[]): string[] => [...new Set(goals.map((goal) => goal.attributePath ?? ""))];

/** Whether anything an attribute goal can watch differs: most saves of a contact (tags, lists) change none of it. */
function fieldsDiffer(before: Subscriber, after: Subscriber): boolean {
  return (
    JSON.stringify(before.customAttributes) !== JSON.stringify(after.customAttributes) ||
    (["email", "firstName", "lastName", "phone", "timezone", "externalId", "status"] as const).some((field) => before[field] !== after[field])
  );
}

/** Values compare as text, case aside (`"Pro"` is `pro`; 10 is `"10"`); a missing value is empty. */
const same = (value: unknown, expected: string | null): boolean => asText(value ?? "").toLowerCase() === (expected ?? "").toLowerCase();

function reachesGoal(goal: SequenceGoal, was: unknown, is: unknown): boolean {
  if (same(was, asText(is ?? ""))) return false;
  if (goal.attributeCondition === "changed") return true;
  if (!same(is, goal.attributeValue)) return false;
  return goal.attributeCondition === "changed_to" || same(was, goal.attributePreviousValue);
}
