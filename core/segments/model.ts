import { SMS_STATUSES, SUBSCRIBER_STATUSES, type SmsStatus, type SubscriberStatus } from "../subscribers/model.js";
import { normalizeTagName } from "../tags/model.js";
import { badRequest, invalid, type DomainError } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";

/**
 * Segments: a named filter over a company's contacts. A filter is a tree of AND/OR groups whose
 * leaves are conditions on a contact field, an attribute, tags, lists, custom events, the email
 * sent to the contact or membership in another segment (compat-reference §9).
 */

/** Fields this server evaluates. */
export const SUPPORTED_FIELDS = [
  "status",
  "phone",
  "smsStatus",
  "tag",
  "email",
  "emailProvider",
  "added",
  "firstName",
  "lastName",
  "list",
  "attribute",
  "event",
  "segment",
  "emailSent",
  "emailDelivered",
  "emailOpened",
  "emailClicked",
  "emailComplained",
  "emailBounced",
] as const;

/** Fields of the product that need data this server does not record yet (polls, Stripe, commerce). */
export const UNSUPPORTED_FIELDS = [
  "pollResponse",
  "stripeProduct",
  "stripeCurrentProduct",
  "stripeTrialProduct",
  "commerceProduct",
  "commerceCollection",
] as const;

export const FILTER_FIELDS = [...SUPPORTED_FIELDS, ...UNSUPPORTED_FIELDS] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export type SupportedField = (typeof SUPPORTED_FIELDS)[number];

export const FILTER_OPERATORS = [
  "is",
  "is_not",
  "contains",
  "not_contains",
  "is_empty",
  "is_not_empty",
  "less_than",
  "more_than",
  "gt",
  "gte",
  "lt",
  "lte",
  "at_least",
  "less_than_count",
  "is_temporary_bounce",
  "is_permanent_bounce",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const JOIN_OPERATORS = ["and", "or"] as const;
export type JoinOperator = (typeof JOIN_OPERATORS)[number];

export const SEGMENT_FORMATS = ["flat", "nested"] as const;
/** `flat`: created from `filters[]` and one join operator; `nested`: created from a `root` group tree. */
export type SegmentFormat = (typeof SEGMENT_FORMATS)[number];

/** The operators each supported field accepts (compat-reference §9). */
export const OPERATORS_BY_FIELD: Readonly<Record<SupportedField, readonly FilterOperator[]>> = {
  status: ["is", "is_not"],
  phone: ["is_empty", "is_not_empty"],
  smsStatus: ["is", "is_not"],
  tag: ["contains", "not_contains", "is_empty", "is_not_empty"],
  email: ["is", "is_not", "contains", "not_contains"],
  emailProvider: ["is", "is_not", "is_empty", "is_not_empty"],
  added: ["less_than", "more_than"],
  firstName: ["contains", "not_contains", "is_empty", "is_not_empty"],
  lastName: ["contains", "not_contains", "is_empty", "is_not_empty"],
  list: ["is", "is_not", "is_empty", "is_not_empty"],
  attribute: ["is", "is_not", "is_empty", "is_not_empty", "gt", "gte", "lt", "lte", "contains", "not_contains"],
  event: ["is", "is_not", "at_least", "less_than_count"],
  segment: ["is", "is_not"],
  emailSent: ["is", "is_not", "at_least", "less_than_count"],
  emailDelivered: ["is", "is_not", "at_least", "less_than_count"],
  emailOpened: ["is", "is_not", "at_least", "less_than_count"],
  emailClicked: ["is", "is_not", "at_least", "less_than_count"],
  emailComplained: ["is", "is_not", "at_least", "less_than_count"],
  emailBounced: ["is", "is_not", "at_least", "less_than_count", "is_temporary_bounce", "is_permanent_bounce"],
};

/** What an email condition looks for on the contact's sends, by field. */
export const EMAIL_ACTIVITY = {
  emailSent: "sent",
  emailDelivered: "delivered",
  emailOpened: "opened",
  emailClicked: "clicked",
  emailComplained: "complained",
  emailBounced: "bounced",
} as const;
export type EmailActivity = (typeof EMAIL_ACTIVITY)[keyof typeof EMAIL_ACTIVITY];

/** A condition on one field. `id` is any stable string (generated when the caller gives none). */
export interface FilterLeaf {
  readonly kind: "filter";
  readonly id: string;
  readonly field: SupportedField;
  readonly operator: FilterOperator;
  readonly value: string;
}

export interface FilterGroup {
  readonly kind: "group";
  readonly id: string;
  readonly joinOperator: JoinOperator;
  readonly children: readonly FilterNode[];
}

export type FilterNode = FilterLeaf | FilterGroup;

export interface Segment {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly format: SegmentFormat;
  /** A flat segment is stored as one group holding its leaves. */
  readonly root: FilterGroup;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Group nesting allowed inside one segment (the same bound as a subscriber operation's audience). */
export const MAX_GROUP_DEPTH = 8;

const EMPTY_CHECKS: readonly FilterOperator[] = ["is_empty", "is_not_empty"];

// ---------------------------------------------------------------------------------------------
/*
 * Conditions: what a leaf means, parsed once; the evaluator (adapters/knex/knex-segment-evaluator.ts)
 * only translates them. The semantics, whatever the storage:
 * - text is compared case-insensitively, and a missing value counts as empty;
 * - `negated` is the complement of the positive form: "is not" keeps exactly the contacts "is"
 *   leaves out (a contact with no value included);
 * - tags and lists match any of the names given; list membership counts only while subscribed;
 * - attribute order compares numbers with number attributes and text with string attributes,
 *   byte by byte; any other pairing is false both ways;
 * - event conditions count the contact's custom events of that name within the window;
 * - email conditions count the contact's sends (test sends left out) that were sent, delivered,
 *   opened, clicked, complained about or bounced, within the window by the time that happened
 *   (the first open or click of each send), or of one campaign. Opens and clicks are people's:
 *   machine engagement (scanners, previews, prefetches) is left out, as in metrics.
 */

/** A point in time given as an age (`7d`) or as a date. */
export type Moment = { readonly ageMs: number } | { readonly at: Date };
/** An event window: the last N days, or all time. */
export type EventWindow = { readonly days: number } | "all";
/** Which sends an email condition counts: those of a window, or of one campaign. */
export type EmailScope = { readonly window: EventWindow } | { readonly campaignId: string };

export type TextMatch = { readonly kind: "equals"; readonly text: string } | { readonly kind: "contains"; readonly text: string } | { readonly kind: "empty" };

/** `negated` turns a condition into its complement: every contact the positive form leaves out. */
export type Condition =
  | { readonly type: "status"; readonly negated: boolean; readonly status: SubscriberStatus }
  | { readonly type: "smsStatus"; readonly negated: boolean; readonly smsStatus: SmsStatus }
  /** Case-insensitive text conditions on a contact column; missing values count as empty. */
  | {
      readonly type: "column";
      readonly column: "email" | "emailProvider" | "firstName" | "lastName" | "phone";
      readonly negated: boolean;
      readonly match: TextMatch;
    }
  /** Has any of the tags (or, with no names, any tag at all). */
  | { readonly type: "tags"; readonly negated: boolean; readonly names: readonly string[] }
  /** Is a current member of any of the lists (or, with no IDs, of any list). */
  | { readonly type: "lists"; readonly negated: boolean; readonly listIds: readonly string[] }
  /** Signed up after (`newer`) or before the moment. */
  | { readonly type: "added"; readonly newer: boolean; readonly moment: Moment }
  | { readonly type: "attribute"; readonly negated: boolean; readonly name: string; readonly match: TextMatch }
  /** Numbers compare numerically with number attributes; other values compare as text with string attributes. */
  | { readonly type: "attributeOrder"; readonly name: string; readonly comparison: "gt" | "gte" | "lt" | "lte"; readonly value: number | string }
  /** Has at least `atLeast` events of that name in the window. */
  | { readonly type: "event"; readonly negated: boolean; readonly name: string; readonly atLeast: number; readonly window: EventWindow }
  | { readonly type: "segment"; readonly negated: boolean; readonly segmentId: string }
  /** Has at least `atLeast` sends with that activity in the scope (bounces of that type only, when given). */
  | {
      readonly type: "email";
      readonly activity: EmailActivity;
      readonly negated: boolean;
      readonly atLeast: number;
      readonly scope: EmailScope;
      readonly bounceType: "Permanent" | "Transient" | null;
    };

const NUMBER = /^-?\d+(\.\d+)?$/;
const WINDOW = /^(all|\d+d)$/;
const AGE = /^(\d+)([hdw])$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const AGE_UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
/** Longest window or age accepted: a hundred years. */
const MAX_DAYS = 36_500;

const isNumber = (value: string): boolean => NUMBER.test(value);

function parseWindow(raw: string): EventWindow | null {
  if (!WINDOW.test(raw)) return null;
  if (raw === "all") return "all";
  const days = Number(raw.slice(0, -1));
  return days >= 1 && days <= MAX_DAYS ? { days } : null;
}

function parseMoment(raw: string): Moment | null {
  const age = AGE.exec(raw);
  if (age) {
    const amount = Number(age[1]);
    const ageMs = amount * AGE_UNIT_MS[age[2]!]!;
    return amount >= 1 && ageMs <= MAX_DAYS * 86_400_000 ? { ageMs } : null;
  }
  if (!ISO_DATE.test(raw)) return null;
  const at = new Date(raw);
  return Number.isNaN(at.getTime()) ? null : { at };
}

/** The cut-off time of a moment at `now`. */
export const momentAt = (moment: Moment, now: Date): Date => ("at" in moment ? moment.at : new Date(now.getTime() - moment.ageMs));

/** The earliest event time of a window at `now`, or null for all time. */
export const windowStart = (window: EventWindow, now: Date): Date | null => (window === "all" ? null : new Date(now.getTime() - window.days * 86_400_000));

const commaList = (value: string): string[] =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

/** `name:value` of an attribute condition: the name is everything before the first colon. */
function splitAttribute(value: string): { name: string; rest: string } | null {
  const colon = value.indexOf(":");
  if (colon < 0) return null;
  return { name: value.slice(0, colon).trim(), rest: value.slice(colon + 1).trim() };
}

/** `eventName[:window]` for is/is_not; `eventName:count[:window]` for counts. */
function parseEvent(value: string, counted: boolean): { name: string; count: number; window: EventWindow } | string {
  const parts = value.split(":").map((part) => part.trim());
  let window: EventWindow = "all";
  const last = parts[parts.length - 1]!;
  // A last part such as 30d, 7y or all is a window (valid or not); a bare number is a count or part of the name.
  if (parts.length >= 2 && /^(all|\d+[a-z]+)$/i.test(last)) {
    const parsed = parseWindow(last);
    if (!parsed) return `window must be 7d, 30d, 90d, 180d, Nd (1 to ${MAX_DAYS} days) or all`;
    window = parsed;
    parts.pop();
  }
  let count = 1;
  if (counted) {
    const raw = parts.length >= 2 ? parts.pop()! : "";
    if (!/^\d+$/.test(raw)) return "value must be eventName:count:window (for example signed_up:3:30d)";
    count = Number(raw);
    if (!Number.isSafeInteger(count)) return "count is too large";
  }
  const name = parts.join(":").trim();
  if (!name)
    return counted ? "value must be eventName:count:window (for example signed_up:3:30d)" : "value must be eventName:window (for example signed_up:30d)";
  return { name, count, window };
}

const WINDOW_RULE = `7d, 30d, 90d, 180d, Nd (1 to ${MAX_DAYS} days) or all`;

/** `window` or `campaign:<id>` for is/is_not and the bounce types; `count[:window]` for counts. */
function parseEmailActivity(value: string, counted: boolean): { count: number; scope: EmailScope } | string {
  const trimmed = value.trim();
  if (!counted && trimmed.startsWith("campaign:")) {
    const campaignId = trimmed.slice("campaign:".length).trim();
    return campaignId ? { count: 1, scope: { campaignId } } : "value must be campaign:<campaign ID>";
  }
  if (counted) {
    const match = /^(\d+)(?::(.+))?$/.exec(trimmed);
    if (!match) return `value must be count:window (for example 10:30d), the window ${WINDOW_RULE}`;
    const count = Number(match[1]);
    if (!Number.isSafeInteger(count)) return "count is too large";
    const window = parseWindow(match[2]?.trim() ?? "all");
    return window ? { count, scope: { window } } : `window must be ${WINDOW_RULE}`;
  }
  const window = parseWindow(trimmed);
  return window ? { count: 1, scope: { window } } : `value must be a window (${WINDOW_RULE}) or campaign:<campaign ID>`;
}

/** Text conditions are case-insensitive: values are compared lower-cased. */
const lowered = (value: string) => value.toLowerCase();

/**
 * What a validated leaf means. Fails with a 400 for values the field cannot read and a 422 for
 * unknown enumerated values (status, smsStatus).
 */
export function conditionOf(leaf: { field: SupportedField; operator: FilterOperator; value: string }, where = "filter"): Result<Condition> {
  const { field, operator, value } = leaf;
  const negated = operator === "is_not" || operator === "not_contains" || operator === "is_empty";
  const bad = (message: string) => fail<Condition>(badRequest(`Invalid ${where} (${field} ${operator}): ${message}`));
  const text = (): TextMatch =>
    operator === "is" || operator === "is_not"
      ? { kind: "equals", text: lowered(value) }
      : operator === "contains" || operator === "not_contains"
        ? { kind: "contains", text: lowered(value) }
        : { kind: "empty" };
  const unknownValue = (allowed: readonly string[]) => {
    const message = `must be one of: ${allowed.join(", ")}`;
    return fail<Condition>(invalid(`Invalid ${where} (${field} ${operator}): value ${message}`, [{ path: `${where}.value`, message }]));
  };
  switch (field) {
    case "status": {
      const status = SUBSCRIBER_STATUSES.find((s) => s === value.toLowerCase());
      return status ? ok({ type: "status", negated, status }) : unknownValue(SUBSCRIBER_STATUSES);
    }
    case "smsStatus": {
      const smsStatus = SMS_STATUSES.find((s) => s === value.toLowerCase());
      return smsStatus ? ok({ type: "smsStatus", negated, smsStatus }) : unknownValue(SMS_STATUSES);
    }
    case "phone":
      // The positive form is "phone is empty"; is_not_empty is its complement.
      return ok({ type: "column", column: "phone", negated: operator === "is_not_empty", match: { kind: "empty" } });
    case "email":
    case "emailProvider":
    case "firstName":
    case "lastName": {
      const match = text();
      return ok({ type: "column", column: field, negated: match.kind === "empty" ? operator === "is_not_empty" : negated, match });
    }
    case "tag": {
      if (EMPTY_CHECKS.includes(operator)) return ok({ type: "tags", negated: operator === "is_empty", names: [] });
      const names = [
        ...new Set(
          commaList(value)
            .map(normalizeTagName)
            .filter((name) => name.length > 0),
        ),
      ];
      if (names.length === 0) return bad("value must name at least one tag");
      return ok({ type: "tags", negated, names });
    }
    case "list": {
      if (EMPTY_CHECKS.includes(operator)) return ok({ type: "lists", negated: operator === "is_empty", listIds: [] });
      const listIds = [...new Set(commaList(value))];
      if (listIds.length === 0) return bad("value must be a list ID");
      return ok({ type: "lists", negated, listIds });
    }
    case "added": {
      const moment = parseMoment(value);
      if (!moment) return bad("value must be a relative date such as 7d, 12h or 2w, or an ISO date such as 2026-01-31");
      return ok({ type: "added", newer: operator === "less_than", moment });
    }
    case "attribute": {
      const parts = splitAttribute(value);
      if (!parts || !parts.name) return bad("value must be name:value (name: for empty checks)");
      if (parts.name.includes('"')) return bad("attribute names cannot contain double quotes");
      if (EMPTY_CHECKS.includes(operator)) return ok({ type: "attribute", negated: operator === "is_not_empty", name: parts.name, match: { kind: "empty" } });
      if (!parts.rest) return bad(`value needs something after "${parts.name}:"`);
      if (operator === "gt" || operator === "gte" || operator === "lt" || operator === "lte") {
        return ok({ type: "attributeOrder", name: parts.name, comparison: operator, value: isNumber(parts.rest) ? Number(parts.rest) : parts.rest });
      }
      const match: TextMatch =
        operator === "is" || operator === "is_not" ? { kind: "equals", text: lowered(parts.rest) } : { kind: "contains", text: lowered(parts.rest) };
      return ok({ type: "attribute", negated, name: parts.name, match });
    }
    case "event": {
      const counted = operator === "at_least" || operator === "less_than_count";
      const parsed = parseEvent(value, counted);
      if (typeof parsed === "string") return bad(parsed);
      return ok({
        type: "event",
        negated: operator === "is_not" || operator === "less_than_count",
        name: parsed.name,
        atLeast: parsed.count,
        window: parsed.window,
      });
    }
    case "segment":
      return ok({ type: "segment", negated, segmentId: value });
    case "emailSent":
    case "emailDelivered":
    case "emailOpened":
    case "emailClicked":
    case "emailComplained":
    case "emailBounced": {
      const counted = operator === "at_least" || operator === "less_than_count";
      const parsed = parseEmailActivity(value, counted);
      if (typeof parsed === "string") return bad(parsed);
      return ok({
        type: "email",
        activity: EMAIL_ACTIVITY[field],
        negated: operator === "is_not" || operator === "less_than_count",
        atLeast: parsed.count,
        scope: parsed.scope,
        bounceType: operator === "is_permanent_bounce" ? "Permanent" : operator === "is_temporary_bounce" ? "Transient" : null,
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Trees as callers send them, and their validation.

export interface FilterLeafInput {
  readonly kind?: "filter" | undefined;
  readonly id?: string | undefined;
  readonly field: FilterField;
  readonly operator: FilterOperator;
  /** Numbers and booleans arrive as strings; null and absent mean "". */
  readonly value?: string | undefined;
}

export interface FilterGroupInput {
  readonly kind: "group";
  readonly id?: string | undefined;
  readonly joinOperator: JoinOperator;
  readonly children: readonly FilterNodeInput[];
}

export type FilterNodeInput = FilterLeafInput | FilterGroupInput;

const isUnsupported = (field: FilterField): boolean => (UNSUPPORTED_FIELDS as readonly string[]).includes(field);

function unsupportedMessage(field: FilterField, where: string): string {
  const what =
    field === "pollResponse"
      ? "poll responses are not recorded by this server yet"
      : field.startsWith("stripe")
        ? "Stripe data is not synced by this server yet"
        : // Commerce events (ecommerce.*) are recorded, as custom events: the `event` field filters on them.
          "product and order filters are not built on this server; filter on the ecommerce.* events with the 'event' field";
  return `Invalid ${where}: the field '${field}' is not supported (${what})`;
}

/** Checks one leaf and gives it an ID. */
function prepareLeaf(leaf: FilterLeafInput, where: string, newId: () => string): Result<FilterLeaf> {
  if (isUnsupported(leaf.field)) return fail(badRequest(unsupportedMessage(leaf.field, where)));
  const field = leaf.field as SupportedField;
  const allowed = OPERATORS_BY_FIELD[field];
  if (!allowed.includes(leaf.operator)) {
    const message = `must be one of: ${allowed.join(", ")} for the field '${field}'`;
    return fail(invalid(`Invalid request: ${where}.operator ${message}`, [{ path: `${where}.operator`, message }]));
  }
  const value = leaf.value ?? "";
  const emptyCheck = EMPTY_CHECKS.includes(leaf.operator);
  if (!emptyCheck && value.length === 0) return fail(badRequest(`Invalid ${where} (${field} ${leaf.operator}): value must not be empty`));
  // An empty check ignores the value, except for attributes which name the attribute in it.
  const kept = emptyCheck && field !== "attribute" ? "" : value;
  const condition = conditionOf({ field, operator: leaf.operator, value: kept }, where);
  if (condition._tag === "Left") return condition;
  return ok({ kind: "filter", id: leaf.id ?? newId(), field, operator: leaf.operator, value: kept });
}

/** Checks a tree (fields, operators, values, nesting) and gives every node without one an ID. */
export function prepareGroup(group: FilterGroupInput, where: string, newId: () => string, depth = 1): Result<FilterGroup> {
  if (depth > MAX_GROUP_DEPTH) return fail(badRequest(`Invalid ${where}: filter groups can be nested at most ${MAX_GROUP_DEPTH} levels deep`));
  if (group.children.length === 0) return fail(badRequest(`Invalid ${where}: a filter group needs at least one condition`));
  const children: FilterNode[] = [];
  for (const [index, child] of group.children.entries()) {
    const path = `${where}.children.${index}`;
    const prepared = child.kind === "group" ? prepareGroup(child, path, newId, depth + 1) : prepareLeaf(child, path, newId);
    if (prepared._tag === "Left") return prepared;
    children.push(prepared.right);
  }
  return ok({ kind: "group", id: group.id ?? newId(), joinOperator: group.joinOperator, children });
}

/** `filters[]` with one join operator, stored as one group. */
export function prepareFlat(filters: readonly FilterLeafInput[], joinOperator: JoinOperator, newId: () => string): Result<FilterGroup> {
  if (filters.length === 0) return fail(badRequest("Invalid filters: at least one filter is required"));
  const children: FilterNode[] = [];
  for (const [index, leaf] of filters.entries()) {
    const prepared = prepareLeaf(leaf, `filters.${index}`, newId);
    if (prepared._tag === "Left") return prepared;
    children.push(prepared.right);
  }
  return ok({ kind: "group", id: newId(), joinOperator, children });
}

/** Every leaf of a tree, depth first (the `filters[]` of a nested segment). */
export function leavesOf(node: FilterNode): FilterLeaf[] {
  return node.kind === "filter" ? [node] : node.children.flatMap(leavesOf);
}

/** The list IDs the tree's list conditions name (empty checks name none). */
export const listIdsOf = (root: FilterGroup): string[] => [
  ...new Set(leavesOf(root).flatMap((leaf) => (leaf.field === "list" && !EMPTY_CHECKS.includes(leaf.operator) ? commaList(leaf.value) : []))),
];

/** The segment IDs a tree references, in order, once per reference. */
export const referencesOf = (root: FilterGroup): string[] =>
  leavesOf(root)
    .filter((leaf) => leaf.field === "segment")
    .map((leaf) => leaf.value);

/** The rule `exactly one of filters or root`, shared by create and update. */
export const definitionConflict = (): DomainError => badRequest("Provide either filters or root, not both");
