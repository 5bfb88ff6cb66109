import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateCampaignGoalCommand } from "./commands.js";

export const ONLY_EVENT_GOALS = badRequest(
  "Only event goals are available on this server (triggerType event with triggerEventName): contact attribute changes are not recorded over time",
);

/** A goal input that asks for an attribute-change goal is refused as a whole. */
export function refuseAttributeGoals(input: Partial<CreateCampaignGoalCommand>): Result<void> {
  const attributeFields = [input.attributePath, input.attributeCondition, input.attributeValue, input.attributePreviousValue];
  if (input.triggerType === "attribute_change" || attributeFields.some((value) => value !== undefined && value !== null)) return fail(ONLY_EVENT_GOALS);
  return ok(undefined);
}
