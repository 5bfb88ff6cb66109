import type { SegmentMembership } from "../segments/segment-membership.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import { normalizeTagName } from "../tags/model.js";
import type { TagRepository } from "../tags/ports.js";
import type { SequenceActivityRepository } from "./activity-ports.js";
import { fieldValue } from "./contact-conditions.js";
import type { Enrollment, EnrollmentContext } from "./enrollment.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import type { Sequence } from "./model.js";
import { asText, passesFilters, valueAt, type PropertyFilter } from "./property-filters.js";

/** Stop condition types this server evaluates (compat-reference §10): every one compat lists. */
export const ENGINE_STOP_CONDITION_TYPES = [
  "none",
  "has_tag",
  "does_not_have_tag",
  "added_to_list",
  "removed_from_list",
  "entered_segment",
  "field_changed",
  "event_received",
] as const;

/** Why the engine cannot apply the sequence's stop condition (null when it can). */
export function stopConditionProblem(sequence: Sequence): string | null {
  const condition = sequence.stopCondition;
  const type = text(condition?.type, "none");
  if (!condition || type === "none") return null;
  if (!(ENGINE_STOP_CONDITION_TYPES as readonly string[]).includes(type))
    return `stopCondition type '${type}' is not applied by this server yet (supported: ${ENGINE_STOP_CONDITION_TYPES.join(", ")}): remove it (null) to enable`;
  if (typeof condition.value !== "string" || condition.value.trim() === "") return `stopCondition type '${type}' needs a value (${VALUE_MEANING[type]})`;
  return null;
}

const VALUE_MEANING: Readonly<Record<string, string>> = {
  has_tag: "the tag name",
  does_not_have_tag: "the tag name",
  added_to_list: "the list ID",
  removed_from_list: "the list ID",
  entered_segment: "the segment ID",
  field_changed: "the field name",
  event_received: "the event name",
};

/** The outcome of a check: why the enrollment stops (null: it goes on), and a new context when a baseline was taken. */
export interface StopCheck {
  readonly reason: string | null;
  readonly context?: EnrollmentContext;
}

/** Events of the stop condition's name read per check. */
const EVENTS_READ = 100;

type Config = Readonly<Record<string, unknown>>;
const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);
const configOf = (value: unknown): Config | null => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Config) : null);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The sequence's `stopCondition`, checked before each step. Conditions on a change (added to or
 * removed from a list, entered a segment, a field changed) compare with a baseline taken before
 * the enrollment's first step; `event_received` counts live events recorded after the enrollment
 * started.
 */
export class StopConditions {
  constructor(
    private readonly activity: SequenceActivityRepository,
    private readonly enrollments: Pick<EnrollmentRepository, "isListMember">,
    private readonly tags: TagRepository,
    private readonly segments: SegmentMembership,
  ) {}

  check = async (sequence: Sequence, enrollment: Enrollment, contact: TaggedSubscriber): Promise<StopCheck> => {
    const condition = sequence.stopCondition;
    const type = text(condition?.type, "none");
    if (!condition || type === "none") return { reason: null };
    const value = typeof condition.value === "string" ? condition.value : "";
    const matchConfig = configOf(condition.matchConfig);
    switch (type) {
      case "has_tag":
      case "does_not_have_tag": {
        const name = (await this.tags.find(sequence.companyId, value))?.name ?? value;
        const has = contact.tags.includes(normalizeTagName(name));
        if (type === "has_tag") return { reason: has ? `stop condition met: the contact has tag '${name}'` : null };
        return { reason: has ? null : `stop condition met: the contact does not have tag '${name}'` };
      }
      case "added_to_list":
      case "removed_from_list": {
        const member = await this.enrollments.isListMember(contact.companyId, value, contact.id);
        const added = type === "added_to_list";
        return this.changed(enrollment, `${type}:${value}`, member, (before) => {
          if (added) return !before && member ? `stop condition met: the contact was added to list ${value}` : null;
          return before && !member ? `stop condition met: the contact was removed from list ${value}` : null;
        });
      }
      case "entered_segment": {
        const member = await this.segments.contains(contact.companyId, value, contact.id);
        return this.changed(enrollment, `${type}:${value}`, member, (before) =>
          !before && member ? `stop condition met: the contact entered segment ${value}` : null,
        );
      }
      case "field_changed": {
        const current = fieldValue(contact, value) ?? null;
        const wanted = matchConfig?.mode === "field_value" ? matchConfig : null;
        const passes = () => !wanted || passesFilters({ field: current }, [{ path: "field", operator: text(wanted.operator, "equals"), value: wanted.value }]);
        return this.changed(enrollment, `${type}:${value}`, current, (before) =>
          !same(before, current) && passes() ? `stop condition met: field '${value}' changed to ${asText(current)}` : null,
        );
      }
      case "event_received": {
        const events = await this.activity.eventsAfter(contact.companyId, contact.id, value, enrollment.startedAt, { inclusive: false, limit: EVENTS_READ });
        const entry = enrollment.context.event?.properties ?? {};
        const found = events.some((event) => eventMatches(event.properties, entry, matchConfig));
        return { reason: found ? `stop condition met: the contact recorded event '${value}'` : null };
      }
      default:
        return { reason: null };
    }
  };

  /** A condition on a change: the first check takes the baseline (and never stops), later ones compare with it. */
  private changed(enrollment: Enrollment, key: string, current: unknown, compare: (before: unknown) => string | null): StopCheck {
    const baseline = enrollment.context.stopBaseline as { key?: string; value?: unknown } | undefined;
    if (!baseline || baseline.key !== key) return { reason: null, context: { ...enrollment.context, stopBaseline: { key, value: current } } };
    return { reason: compare(baseline.value) };
  }
}

/** An event meets the condition's matchConfig: its property filters, or properties equal to the entry event's. */
function eventMatches(properties: Readonly<Record<string, unknown>>, entry: Readonly<Record<string, unknown>>, matchConfig: Config | null): boolean {
  if (matchConfig?.mode === "event_property_filter")
    return passesFilters(properties, Array.isArray(matchConfig.propertyFilters) ? (matchConfig.propertyFilters as PropertyFilter[]) : []);
  if (matchConfig?.mode === "event_property") {
    const rules = Array.isArray(matchConfig.rules) ? (matchConfig.rules as Config[]) : [];
    return rules.every((rule) => {
      const entryValue = valueAt(entry, text(rule.entryFieldPath, "").replace(/^event\./, ""));
      const eventValue = valueAt(properties, text(rule.eventFieldPath, "").replace(/^event\./, ""));
      return entryValue !== undefined && entryValue !== null && eventValue !== undefined && asText(entryValue) === asText(eventValue);
    });
  }
  return true;
}
