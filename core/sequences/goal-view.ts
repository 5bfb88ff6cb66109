import * as t from "io-ts";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";
import type { CountedGoal } from "./goals.js";

/** A goal as the goals routes show it (compat-reference §10), with the conversions credited to it. */
export const GoalView = view(
  {
    id: Id,
    sequenceId: Id,
    name: t.string,
    description: NullableString,
    triggerType: t.string,
    triggerEventName: NullableString,
    attributePath: NullableString,
    attributeCondition: NullableString,
    attributeValue: NullableString,
    attributePreviousValue: NullableString,
    eventPropertyName: NullableString,
    eventPropertyLabel: NullableString,
    attributionWindowHours: t.number,
    isActive: t.boolean,
    conversionCount: t.number,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "SequenceGoal",
);
export type GoalView = t.TypeOf<typeof GoalView>;

export const toGoalView = (goal: CountedGoal): GoalView => ({
  id: goal.id,
  sequenceId: goal.sequenceId,
  name: goal.name,
  description: goal.description,
  triggerType: goal.triggerType,
  triggerEventName: goal.triggerEventName,
  attributePath: goal.attributePath,
  attributeCondition: goal.attributeCondition,
  attributeValue: goal.attributeValue,
  attributePreviousValue: goal.attributePreviousValue,
  eventPropertyName: goal.eventPropertyName,
  eventPropertyLabel: goal.eventPropertyLabel,
  attributionWindowHours: goal.attributionWindowHours,
  isActive: goal.isActive,
  conversionCount: goal.conversionCount,
  createdAt: goal.createdAt.toISOString(),
  updatedAt: goal.updatedAt.toISOString(),
});
