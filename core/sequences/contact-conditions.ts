import type { SegmentMembership } from "../segments/segment-membership.js";
import { normalizeTagName } from "../tags/model.js";
import type { TagRepository } from "../tags/ports.js";
import type { Subscriber, TaggedSubscriber } from "../subscribers/model.js";
import type { ClickScope, SequenceActivityRepository } from "./activity-ports.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { asText } from "./property-filters.js";

/**
 * Where activity conditions (`event_received`, `link_clicked`) look beyond `ever`: the
 * enrollment's sequence since the run started. Null where no run exists (a simulation): there,
 * `this_sequence` and `previous_email` find nothing.
 */
export interface ConditionScope {
  readonly sequenceId: string;
  readonly since: Date;
}

/** Clicked URLs read per check. */
const CLICKS_READ = 500;

const FIELDS: Record<string, (contact: Subscriber) => unknown> = {
  email: (contact) => contact.email,
  firstName: (contact) => contact.firstName,
  lastName: (contact) => contact.lastName,
  phone: (contact) => contact.phone,
  timezone: (contact) => contact.timezone,
  externalId: (contact) => contact.externalId,
  status: (contact) => contact.status,
};

/** A contact field by name, else a custom attribute (`plan` or `customAttributes.plan`). */
export function fieldValue(contact: Subscriber, name: string): unknown {
  const field = FIELDS[name];
  if (field) return field(contact);
  const key = name.startsWith("customAttributes.") ? name.slice("customAttributes.".length) : name;
  return contact.customAttributes[key];
}

const numeric = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * Whether a contact meets a `logic_condition` (or a condition branch path), for runs, test runs
 * and simulations alike. Types the engine cannot evaluate are refused at enable.
 */
export class ContactConditions {
  constructor(
    private readonly tags: TagRepository,
    private readonly enrollments: Pick<EnrollmentRepository, "isListMember">,
    private readonly activity: SequenceActivityRepository,
    private readonly segments: SegmentMembership,
  ) {}

  meets = async (contact: TaggedSubscriber, condition: Readonly<Record<string, unknown>>, scope: ConditionScope | null): Promise<boolean> => {
    switch (condition.conditionType) {
      case "has_tag":
      case "does_not_have_tag": {
        const name =
          typeof condition.tagName === "string" ? condition.tagName : ((await this.tags.find(contact.companyId, String(condition.tagId)))?.name ?? null);
        const has = name !== null && contact.tags.includes(normalizeTagName(name));
        return condition.conditionType === "has_tag" ? has : !has;
      }
      case "in_list":
        return this.enrollments.isListMember(contact.companyId, String(condition.listId), contact.id);
      case "in_segment":
        return this.segments.contains(contact.companyId, String(condition.segmentId), contact.id);
      case "event_received": {
        const since = await this.since(contact, condition, scope);
        return since !== undefined && this.activity.hasEvent(contact.companyId, contact.id, String(condition.eventName), since);
      }
      case "link_clicked": {
        const clicks = await this.clickScope(contact, condition, scope);
        if (!clicks) return false;
        const urls = await this.activity.clickedUrls(contact.companyId, contact.id, clicks, CLICKS_READ);
        const wanted = typeof condition.linkUrl === "string" && condition.linkUrl.trim() !== "" ? condition.linkUrl.trim() : null;
        return wanted === null ? urls.length > 0 : urls.some((url) => sameLink(url, wanted));
      }
      case "has_phone":
        return contact.phone !== null && contact.phone !== "";
      case "field_equals":
      case "field_contains":
      case "field_greater_than":
      case "field_less_than":
        return fieldMeets(contact, condition);
      default:
        return false;
    }
  };

  /** Events counted from: null for `ever`, a time for the scopes, undefined when the scope holds nothing. */
  private async since(contact: TaggedSubscriber, condition: Readonly<Record<string, unknown>>, scope: ConditionScope | null): Promise<Date | null | undefined> {
    const activityScope = condition.activityScope ?? "ever";
    if (activityScope === "ever") return null;
    if (!scope) return undefined;
    if (activityScope === "this_sequence") return scope.since;
    return (await this.activity.lastSequenceSend(contact.companyId, contact.id, scope.sequenceId, scope.since))?.sentAt;
  }

  private async clickScope(contact: TaggedSubscriber, condition: Readonly<Record<string, unknown>>, scope: ConditionScope | null): Promise<ClickScope | null> {
    const activityScope = condition.activityScope ?? "ever";
    if (activityScope === "ever") return { kind: "ever" };
    if (!scope) return null;
    if (activityScope === "this_sequence") return { kind: "sequence", sequenceId: scope.sequenceId, since: scope.since };
    const last = await this.activity.lastSequenceSend(contact.companyId, contact.id, scope.sequenceId, scope.since);
    return last ? { kind: "send", sendId: last.id } : null;
  }
}

/** A clicked URL is the condition's link when equal to it, or when it only adds a query or fragment (tracking parameters). */
function sameLink(clicked: string, wanted: string): boolean {
  const bare = (url: string) => url.replace(/\/+$/, "");
  if (bare(clicked) === bare(wanted)) return true;
  const joiner = wanted.includes("?") ? "&" : "?";
  return clicked.startsWith(`${wanted}${joiner}`) || clicked.startsWith(`${wanted}#`) || clicked.startsWith(`${bare(wanted)}/?`);
}

function fieldMeets(contact: TaggedSubscriber, condition: Readonly<Record<string, unknown>>): boolean {
  const actual = fieldValue(contact, String(condition.fieldName));
  const expected = condition.fieldValue;
  if (actual === undefined || actual === null) return false;
  if (condition.conditionType === "field_contains") return asText(actual).toLowerCase().includes(asText(expected).toLowerCase());
  const [a, b] = [numeric(actual), numeric(expected)];
  if (condition.conditionType === "field_equals") return a !== null && b !== null ? a === b : asText(actual).toLowerCase() === asText(expected).toLowerCase();
  if (a === null || b === null) return false;
  return condition.conditionType === "field_greater_than" ? a > b : a < b;
}
