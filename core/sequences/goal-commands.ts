import * as t from "io-ts";
import { boundedText, integerBetween, nullable, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";

const Text = boundedText(255);
const Value = boundedText(1000);

const goalFields = {
  description: optional(nullable(boundedText(2000))),
  triggerType: optional(oneOf(["event", "attribute_change"] as const, "GoalTriggerType")),
  triggerEventName: optional(nullable(Text)),
  attributePath: optional(nullable(Text)),
  attributeCondition: optional(nullable(oneOf(["changed", "changed_to", "changed_from_to"] as const, "GoalAttributeCondition"))),
  attributeValue: optional(nullable(Value)),
  attributePreviousValue: optional(nullable(Value)),
  eventPropertyName: optional(nullable(Text)),
  eventPropertyLabel: optional(nullable(Text)),
  attributionWindowHours: optional(integerBetween(1, 720)),
  isActive: optional(t.boolean),
};

/** POST /sequences/{sequenceId}/goals. */
export const CreateGoalCommand = t.exact(t.intersection([t.type({ name: required(Text) }), t.partial(goalFields)]), "CreateGoalCommand");
export type CreateGoalCommand = t.TypeOf<typeof CreateGoalCommand>;

/** PATCH /sequences/{sequenceId}/goals/{goalId}: the given fields replace the goal's (null clears the nullable ones). */
export const UpdateGoalCommand = t.exact(t.partial({ name: optional(Text), ...goalFields }), "UpdateGoalCommand");
export type UpdateGoalCommand = t.TypeOf<typeof UpdateGoalCommand>;

export const GoalPath = t.type({ sequenceId: TrimmedNonEmpty, goalId: TrimmedNonEmpty }, "GoalPath");
