import * as t from "io-ts";
import { boundedText, oneOf, optional, required } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";

/** Condition types of `logic_condition` nodes and condition branch paths (compat-reference §10). */
export const CONDITION_TYPES = [
  "has_tag",
  "does_not_have_tag",
  "in_list",
  "in_segment",
  "event_received",
  "link_clicked",
  "field_equals",
  "field_contains",
  "field_greater_than",
  "field_less_than",
  "has_phone",
  "sms_subscribed",
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

const FieldValue = withSchema(t.union([t.string, t.number, t.boolean]), { type: ["string", "number", "boolean"] });

/** The fields a condition may carry; which are needed depends on `conditionType` (conditionRuleViolation). */
export const ConditionFieldProps = t.intersection([
  t.type({ conditionType: required(oneOf(CONDITION_TYPES, "ConditionType")) }),
  t.partial({
    tagId: optional(boundedText(100)),
    tagName: optional(boundedText(100)),
    listId: optional(boundedText(100)),
    segmentId: optional(boundedText(100)),
    eventName: optional(boundedText(255)),
    linkUrl: optional(boundedText(2048)),
    fieldName: optional(boundedText(255)),
    fieldValue: optional(FieldValue),
    activityScope: optional(oneOf(["ever", "this_sequence", "previous_email"] as const)),
  }),
]);
export const ConditionFields = t.exact(ConditionFieldProps, "ConditionFields");

/** Why a decoded condition lacks the field its type needs (null when it has it). */
export function conditionRuleViolation(condition: Record<string, unknown>): string | null {
  switch (condition.conditionType as ConditionType) {
    case "has_tag":
    case "does_not_have_tag":
      return condition.tagId === undefined && condition.tagName === undefined ? `${String(condition.conditionType)} needs tagId or tagName` : null;
    case "in_list":
      return condition.listId === undefined ? "in_list needs listId" : null;
    case "in_segment":
      return condition.segmentId === undefined ? "in_segment needs segmentId" : null;
    case "event_received":
      return condition.eventName === undefined ? "event_received needs eventName" : null;
    case "field_equals":
    case "field_contains":
    case "field_greater_than":
    case "field_less_than":
      return condition.fieldName === undefined || condition.fieldValue === undefined
        ? `${String(condition.conditionType)} needs fieldName and fieldValue`
        : null;
    default:
      return null;
  }
}
