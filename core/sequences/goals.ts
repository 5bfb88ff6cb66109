import { notFound } from "../shared/errors.js";

/** How long after a contact's run through the sequence a goal reached still counts for it, unless the goal says. */
export const DEFAULT_ATTRIBUTION_WINDOW_HOURS = 72;

/**
 * A sequence goal (compat-reference §10): what the sequence is for, e.g. an `order_completed`
 * event. A contact in the sequence who reaches it converts: while the run goes on, or within the
 * attribution window after it ended.
 */
export interface SequenceGoal {
  readonly id: string;
  readonly companyId: string;
  readonly sequenceId: string;
  readonly name: string;
  readonly description: string | null;
  readonly triggerType: "event" | "attribute_change";
  readonly triggerEventName: string | null;
  readonly attributePath: string | null;
  readonly attributeCondition: "changed" | "changed_to" | "changed_from_to" | null;
  readonly attributeValue: string | null;
  readonly attributePreviousValue: string | null;
  /** The goal event's property whose value a conversion records (a revenue amount, a plan). */
  readonly eventPropertyName: string | null;
  readonly eventPropertyLabel: string | null;
  readonly attributionWindowHours: number;
  readonly isActive: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A goal with the number of conversions credited to it. */
export interface CountedGoal extends SequenceGoal {
  readonly conversionCount: number;
}

/** One contact's run reaching a goal. */
export interface GoalConversion {
  readonly goalId: string;
  readonly enrollmentId: string;
  readonly companyId: string;
  readonly subscriberId: string;
  readonly value: string | null;
  readonly convertedAt: Date;
}

export const GOAL_NOT_FOUND = notFound("Goal not found");

type GoalFields = Omit<SequenceGoal, "id" | "companyId" | "sequenceId" | "createdAt" | "updatedAt">;

export const DEFAULT_GOAL_FIELDS: GoalFields = {
  name: "",
  description: null,
  triggerType: "event",
  triggerEventName: null,
  attributePath: null,
  attributeCondition: null,
  attributeValue: null,
  attributePreviousValue: null,
  eventPropertyName: null,
  eventPropertyLabel: null,
  attributionWindowHours: DEFAULT_ATTRIBUTION_WINDOW_HOURS,
  isActive: true,
};

/** The goal's fields after a create or PATCH body: given fields replace the current ones, null clears. */
export function applyGoalFields<G extends GoalFields>(current: G, input: Partial<Record<keyof GoalFields, unknown>>): G {
  const next: Record<string, unknown> = { ...current };
  for (const key of Object.keys(DEFAULT_GOAL_FIELDS) as (keyof GoalFields)[]) if (input[key] !== undefined) next[key] = input[key];
  return next as unknown as G;
}

/** Why the goal cannot be stored as it is (null when it can). */
export function goalProblem(goal: GoalFields): string | null {
  if (goal.triggerType === "attribute_change") {
    if (goal.attributePath === null) return "An attribute_change goal needs attributePath (the field or custom attribute it watches)";
    if (goal.attributeCondition === null) return "An attribute_change goal needs attributeCondition (changed, changed_to or changed_from_to)";
    if (goal.attributeCondition !== "changed" && goal.attributeValue === null) return `attributeCondition ${goal.attributeCondition} needs attributeValue`;
    if (goal.attributeCondition === "changed_from_to" && goal.attributePreviousValue === null)
      return "attributeCondition changed_from_to needs attributePreviousValue";
    return null;
  }
  if (goal.triggerEventName === null) return "An event goal needs triggerEventName (the event that reaches it)";
  return null;
}
