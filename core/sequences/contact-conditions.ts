import { normalizeTagName } from "../tags/model.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { asText } from "./property-filters.js";

/** What a condition needs to look up beyond the contact: tag names by ID, list memberships. */
export interface ConditionLookups {
  readonly tagName: (tagId: string) => Promise<string | null>;
  readonly enrollments: Pick<EnrollmentRepository, "isListMember">;
}

const FIELDS: Record<string, (contact: TaggedSubscriber) => unknown> = {
  email: (contact) => contact.email,
  firstName: (contact) => contact.firstName,
  lastName: (contact) => contact.lastName,
  phone: (contact) => contact.phone,
  timezone: (contact) => contact.timezone,
  externalId: (contact) => contact.externalId,
  status: (contact) => contact.status,
};

/** A contact field by name, else a custom attribute (`plan` or `customAttributes.plan`). */
export function fieldValue(contact: TaggedSubscriber, name: string): unknown {
  const field = FIELDS[name];
  if (field) return field(contact);
  const key = name.startsWith("customAttributes.") ? name.slice("customAttributes.".length) : name;
  return contact.customAttributes[key];
}

const numeric = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** Whether the contact meets a `logic_condition` (or condition branch path); types the engine cannot evaluate are refused at enable. */
export async function meetsCondition(contact: TaggedSubscriber, condition: Readonly<Record<string, unknown>>, lookups: ConditionLookups): Promise<boolean> {
  switch (condition.conditionType) {
    case "has_tag":
    case "does_not_have_tag": {
      const name = typeof condition.tagName === "string" ? condition.tagName : await lookups.tagName(String(condition.tagId));
      const has = name !== null && contact.tags.includes(normalizeTagName(name));
      return condition.conditionType === "has_tag" ? has : !has;
    }
    case "in_list":
      return lookups.enrollments.isListMember(contact.companyId, String(condition.listId), contact.id);
    case "has_phone":
      return contact.phone !== null && contact.phone !== "";
    case "field_equals":
    case "field_contains":
    case "field_greater_than":
    case "field_less_than": {
      const actual = fieldValue(contact, String(condition.fieldName));
      const expected = condition.fieldValue;
      if (actual === undefined || actual === null) return false;
      if (condition.conditionType === "field_contains") return asText(actual).toLowerCase().includes(asText(expected).toLowerCase());
      if (condition.conditionType === "field_equals") {
        const [a, b] = [numeric(actual), numeric(expected)];
        return a !== null && b !== null ? a === b : asText(actual).toLowerCase() === asText(expected).toLowerCase();
      }
      const [a, b] = [numeric(actual), numeric(expected)];
      if (a === null || b === null) return false;
      return condition.conditionType === "field_greater_than" ? a > b : a < b;
    }
    default:
      return false;
  }
}
