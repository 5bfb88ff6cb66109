import * as t from "io-ts";
import { ContentHtml, ContentPreviewText, ContentSubject } from "../emails/commands.js";
import { EmailBlocks } from "../emails/blocks.js";
import { boundedArray } from "../shared/bounded-array.js";
import { boundedText, Email, integerBetween, nullable, oneOf, optional, reportErrors, required } from "../shared/codecs.js";
import { badRequest, invalid, type DomainError } from "../shared/errors.js";
import { headerText } from "../shared/header-text.js";
import { withSchema } from "../shared/json-schema.js";
import { fail, ok, type Result } from "../shared/result.js";
import { SUBSCRIBER_STATUSES } from "../subscribers/model.js";
import { TimeZone } from "../subscribers/commands.js";
import { ConditionFieldProps, ConditionFields, conditionRuleViolation } from "./conditions.js";
import { PropertyFilterCodec } from "./property-filters.js";
import { COMPLETION_NODE, RUNNABLE_NODE_TYPES, TRIGGER_NODE, UNSUPPORTED_NODE_TYPES, type NodeType, type RunnableNodeType } from "./model.js";

/**
 * The config of each node type this server can run (compat-reference §10). Types and enumerations
 * are checked by the codecs (422 naming the field); rules across fields (one body source, one way
 * of waiting) after them (400). Unknown fields are dropped, so nothing unchecked is stored.
 */

const Label = optional(boundedText(255));
const Id = boundedText(100);
const Emails = optional(boundedArray(Email, 0, 10));

const ActionEmail = t.exact(
  t.intersection([
    t.type({ subject: required(ContentSubject) }),
    t.partial({
      name: Label,
      label: Label,
      previewText: optional(ContentPreviewText),
      html: optional(ContentHtml),
      blocks: optional(EmailBlocks),
      emailPreset: optional(nullable(oneOf(["branded", "minimal"] as const))),
      isTransactional: optional(t.boolean),
      ccEmails: Emails,
      bccEmails: Emails,
      senderProfileId: optional(nullable(Id)),
      fromEmail: optional(nullable(Email)),
      fromName: optional(nullable(headerText(255))),
      replyProfileId: optional(nullable(Id)),
      replyTo: optional(nullable(Email)),
      replyToName: optional(nullable(headerText(255))),
    }),
  ]),
  "ActionEmailConfig",
);

const TagAction = t.exact(t.partial({ tagId: optional(Id), tagName: optional(boundedText(100)), label: Label }), "TagActionConfig");
const ListAction = t.exact(
  t.intersection([t.type({ listId: required(Id) }), t.partial({ listName: optional(boundedText(255)), label: Label })]),
  "ListActionConfig",
);

/** A scalar, null, or a `{{event.x}}` reference (any string; the engine fills merge tags). */
const AttributeValue = withSchema(t.union([t.string, t.number, t.boolean, t.null]), { type: ["string", "number", "boolean", "null"] });
const AttributeUpdate = t.exact(
  t.intersection([
    t.type({ name: required(boundedText(100)), value: AttributeValue }),
    t.partial({ valueType: optional(oneOf(["text", "number", "boolean"] as const)) }),
  ]),
  "AttributeUpdate",
);
const UpdateAttributes = t.exact(
  t.partial({
    label: Label,
    firstName: optional(nullable(boundedText(255))),
    lastName: optional(nullable(boundedText(255))),
    status: optional(oneOf(SUBSCRIBER_STATUSES)),
    customAttributeUpdates: optional(boundedArray(AttributeUpdate, 0, 100)),
  }),
  "UpdateAttributesConfig",
);

/** This machine: plain http to it is for local testing, and only reached when private destinations are allowed. */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * An absolute https URL: a webhook step only calls out over TLS. Plain http is accepted only to
 * this machine (local testing); calling it needs ALLOW_PRIVATE_DESTINATIONS like any private address.
 */
const HttpsUrl = withSchema(
  new t.Type<string, string, unknown>(
    "HttpsUrl",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      if (u.length > 2048) return t.failure(u, c, "must be at most 2048 characters");
      try {
        const url = new URL(u.trim());
        if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname))) return t.success(u.trim());
      } catch {
        // falls through
      }
      return t.failure(u, c, "must be an absolute https:// URL");
    },
    t.identity,
  ),
  { type: "string", format: "uri", pattern: "^https?://" },
);
const ResultKey = withSchema(
  new t.Type<string, string, unknown>(
    "ResultKey",
    (u): u is string => typeof u === "string",
    (u, c) =>
      typeof u === "string" && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(u)
        ? t.success(u)
        : t.failure(u, c, "must be 1 to 64 letters, digits or underscores, not starting with a digit"),
    t.identity,
  ),
  { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" },
);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** Outgoing request headers: at most 50, names HTTP tokens, values without line breaks. */
const WebhookHeaders = withSchema(
  new t.Type<Record<string, string>, Record<string, string>, unknown>(
    "WebhookHeaders",
    (u): u is Record<string, string> => typeof u === "object" && u !== null && !Array.isArray(u),
    (u, c) => {
      if (typeof u !== "object" || u === null || Array.isArray(u)) return t.failure(u, c, "must be an object of header names and values");
      const entries = Object.entries(u);
      if (entries.length > 50) return t.failure(u, c, "must have at most 50 headers");
      for (const [name, value] of entries) {
        if (!HEADER_NAME.test(name)) return t.failure(u, c, `header name '${name}' is not a valid HTTP header name`);
        const checked = headerText(4096).validate(value, [...c, { key: name, type: t.string, actual: value }]);
        if (checked._tag === "Left") return checked;
      }
      return t.success(u as Record<string, string>);
    },
    t.identity,
  ),
  { type: "object", additionalProperties: { type: "string", maxLength: 4096 }, maxProperties: 50 },
);
const Webhook = t.exact(
  t.intersection([
    t.type({ url: required(HttpsUrl) }),
    t.partial({
      label: Label,
      method: optional(oneOf(["POST", "GET", "PUT", "PATCH", "DELETE"] as const)),
      headers: optional(WebhookHeaders),
      body: optional(nullable(boundedText(100_000))),
      resultKey: optional(ResultKey),
      onError: optional(oneOf(["continue", "exit", "fail"] as const)),
    }),
  ]),
  "WebhookConfig",
);

const HH_MM = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
export const TimeOfDay = withSchema(
  new t.Type<string, string, unknown>(
    "TimeOfDay",
    (u): u is string => typeof u === "string" && HH_MM.test(u),
    (u, c) => (typeof u === "string" && HH_MM.test(u) ? t.success(u) : t.failure(u, c, "must be a time of day HH:MM (00:00 to 24:00)")),
    t.identity,
  ),
  { type: "string", pattern: HH_MM.source },
);
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const Weekday = oneOf(WEEKDAYS, "Weekday");
const DAY_LIMIT = 3650;

const DelayParts = {
  days: optional(integerBetween(0, DAY_LIMIT)),
  hours: optional(integerBetween(0, 24 * DAY_LIMIT)),
  minutes: optional(integerBetween(0, 24 * 60 * DAY_LIMIT)),
};
const Delay = t.exact(
  t.partial({
    ...DelayParts,
    mode: optional(oneOf(["duration", "until_date", "until_weekday"] as const)),
    untilDateField: optional(boundedText(255)),
    untilOffsetDirection: optional(oneOf(["before", "after"] as const)),
    untilMissingAction: optional(oneOf(["continue", "exit"] as const)),
    untilDays: optional(boundedArray(Weekday, 1, 7)),
    untilStartTime: optional(TimeOfDay),
    untilEndTime: optional(TimeOfDay),
    untilTimezone: optional(TimeZone),
  }),
  "Delay",
);
const WaitUntil = t.exact(
  t.intersection([
    t.type({ field: required(boundedText(255)) }),
    t.partial({
      offset: optional(t.exact(t.partial(DelayParts))),
      direction: optional(oneOf(["before", "after"] as const)),
      missingAction: optional(oneOf(["continue", "exit"] as const)),
    }),
  ]),
  "WaitUntil",
);
const WaitUntilWeekday = t.exact(
  t.partial({
    day: optional(Weekday),
    days: optional(boundedArray(Weekday, 1, 7)),
    startTime: optional(TimeOfDay),
    endTime: optional(TimeOfDay),
    timezone: optional(TimeZone),
  }),
  "WaitUntilWeekday",
);
const LogicDelay = t.exact(
  t.partial({
    label: Label,
    delayDays: optional(integerBetween(0, DAY_LIMIT)),
    delayHours: optional(integerBetween(0, 24 * DAY_LIMIT)),
    delayMinutes: optional(integerBetween(0, 24 * 60 * DAY_LIMIT)),
    delay: optional(Delay),
    delayMs: optional(integerBetween(1, DAY_LIMIT * 86_400_000)),
    waitUntil: optional(WaitUntil),
    waitUntilWeekday: optional(WaitUntilWeekday),
  }),
  "LogicDelayConfig",
);

const WaitForEvent = t.exact(
  t.intersection([
    t.type({ eventName: required(boundedText(255)) }),
    t.partial({
      label: Label,
      timeoutDays: optional(integerBetween(1, 365)),
      timeoutAction: optional(oneOf(["continue", "exit"] as const)),
      propertyFilters: optional(boundedArray(PropertyFilterCodec, 0, 10)),
    }),
  ]),
  "WaitForEventConfig",
);

const LogicCondition = t.exact(t.intersection([ConditionFieldProps, t.partial({ label: Label })]), "LogicConditionConfig");

/** A way out of a branch node: its `id` is the `condition` of the edge that leaves by it. */
const BranchPath = t.exact(t.intersection([t.type({ id: required(boundedText(64)) }), t.partial({ label: Label, conditionType: t.unknown })]), "BranchPath");
const LogicBranch = t.exact(
  t.intersection([
    t.type({ paths: required(boundedArray(t.unknown, 1, 10)) }),
    t.partial({
      label: Label,
      splitMode: optional(oneOf(["condition", "random"] as const)),
      randomPercentages: optional(boundedArray(integerBetween(0, 100), 1, 10)),
    }),
  ]),
  "LogicBranchConfig",
);

const CODECS: Record<RunnableNodeType, t.Type<Record<string, unknown>, unknown, unknown>> = {
  action_email: ActionEmail,
  action_add_tag: TagAction,
  action_remove_tag: TagAction,
  action_add_to_list: ListAction,
  action_remove_from_list: ListAction,
  action_update_attributes: UpdateAttributes,
  action_webhook: Webhook,
  logic_delay: LogicDelay,
  logic_wait_for_event: WaitForEvent,
  logic_condition: LogicCondition,
  logic_branch: LogicBranch,
} as unknown as Record<RunnableNodeType, t.Type<Record<string, unknown>, unknown, unknown>>;

export const isRunnableNodeType = (type: string): type is RunnableNodeType => (RUNNABLE_NODE_TYPES as readonly string[]).includes(type);

/** The 400 for a node type of the hosted product this server cannot run, or that nobody knows. */
export function nodeTypeRefusal(type: string, path: string): DomainError {
  if ((UNSUPPORTED_NODE_TYPES as readonly string[]).includes(type))
    return badRequest(`${path}: node type '${type}' is not supported by this server (it cannot send SMS, run AI steps, create discounts or run A/B tests)`);
  if (type === TRIGGER_NODE || type === COMPLETION_NODE) return badRequest(`${path}: a sequence has exactly one '${type}' node, made with the sequence`);
  return badRequest(`${path}: unknown node type '${type}'; supported: ${RUNNABLE_NODE_TYPES.join(", ")}`);
}

/** Decodes with `codec`, the failure's paths under `path` (the place of the config in the request). */
export function decodeAt<A>(codec: t.Decoder<unknown, A>, value: unknown, path: string): Result<A> {
  const decoded = codec.decode(value);
  if (decoded._tag === "Right") return ok(decoded.right);
  const errors = reportErrors(decoded.left).map((error) => ({
    path: error.path === "body" ? path : `${path}.${error.path}`,
    message: error.message,
  }));
  const first = errors[0]!;
  return fail(invalid(`Invalid request: ${first.path} ${first.message}`, errors));
}

const countDefined = (...values: unknown[]): number => values.filter((value) => value !== undefined).length;

/** Why a decoded config breaks a rule across its fields (null when it keeps them all). */
function crossFieldViolation(type: RunnableNodeType, config: Record<string, unknown>): string | null {
  switch (type) {
    case "action_email":
      if (countDefined(config.html, config.blocks) !== 1) return "give exactly one of html or blocks";
      if (Array.isArray(config.blocks) && config.blocks.length === 0) return "blocks must contain at least one block";
      if (config.senderProfileId && config.fromEmail) return "give senderProfileId or fromEmail, not both";
      if (config.replyProfileId && config.replyTo) return "give replyProfileId or replyTo, not both";
      return null;
    case "action_add_tag":
    case "action_remove_tag":
      return config.tagId === undefined && config.tagName === undefined ? "give tagId or tagName" : null;
    case "action_update_attributes": {
      const updates = config.customAttributeUpdates as unknown[] | undefined;
      const changes = countDefined(config.firstName, config.lastName, config.status) + (updates?.length ?? 0);
      return changes === 0 ? "give at least one of firstName, lastName, status or customAttributeUpdates" : null;
    }
    case "logic_delay":
      return delayViolation(config);
    case "logic_condition":
      return conditionRuleViolation(config);
    default:
      return null;
  }
}

function delayViolation(config: Record<string, unknown>): string | null {
  const simple = countDefined(config.delayDays, config.delayHours, config.delayMinutes) > 0 ? 1 : 0;
  const forms = simple + countDefined(config.delay, config.delayMs, config.waitUntil, config.waitUntilWeekday);
  if (forms !== 1) return "give exactly one way of waiting: delayDays/delayHours/delayMinutes, delay, delayMs, waitUntil or waitUntilWeekday";
  const total = (days: unknown, hours: unknown, minutes: unknown) => Number(days ?? 0) * 1440 + Number(hours ?? 0) * 60 + Number(minutes ?? 0);
  if (simple && total(config.delayDays, config.delayHours, config.delayMinutes) === 0) return "the delay must be longer than zero";
  if (total(config.delayDays, config.delayHours, config.delayMinutes) > DAY_LIMIT * 1440) return `the delay must be at most ${DAY_LIMIT} days`;
  const delay = config.delay as Record<string, unknown> | undefined;
  if (delay) {
    const mode = delay.mode ?? "duration";
    if (mode === "duration" && total(delay.days, delay.hours, delay.minutes) === 0) return "delay: the duration must be longer than zero";
    if (mode === "until_date" && delay.untilDateField === undefined) return "delay: mode until_date needs untilDateField";
    if (mode === "until_weekday" && delay.untilDays === undefined) return "delay: mode until_weekday needs untilDays";
  }
  const weekday = config.waitUntilWeekday as Record<string, unknown> | undefined;
  if (weekday && countDefined(weekday.day, weekday.days) !== 1) return "waitUntilWeekday: give day or days";
  return null;
}

/** Branch paths: unique IDs, no `else` (the name of the way out when no path matches), conditions checked in condition mode. */
function branchConfig(config: Record<string, unknown>, path: string): Result<Record<string, unknown>> {
  const mode = (config.splitMode as string | undefined) ?? "condition";
  const paths: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of (config.paths as unknown[]).entries()) {
    const at = `${path}.paths.${index}`;
    const base = decodeAt(BranchPath, raw, at);
    if (base._tag === "Left") return base;
    const id = base.right.id;
    if (id === "else") return fail(badRequest(`${at}.id: 'else' names the way out when no path matches; choose another ID`));
    if (seen.has(id)) return fail(badRequest(`${at}.id: path IDs must be unique within the branch ('${id}' repeats)`));
    seen.add(id);
    if (mode === "random") {
      paths.push({ id, ...(base.right.label !== undefined ? { label: base.right.label } : {}) });
      continue;
    }
    const condition = decodeAt(ConditionFields, raw, at);
    if (condition._tag === "Left") return condition;
    const violation = conditionRuleViolation(condition.right);
    if (violation) return fail(badRequest(`${at}: ${violation}`));
    paths.push({ id, ...(base.right.label !== undefined ? { label: base.right.label } : {}), ...condition.right });
  }
  const percentages = config.randomPercentages as number[] | undefined;
  if (mode === "random") {
    if (paths.length < 2) return fail(badRequest(`${path}: a random split needs at least two paths`));
    if (!percentages || percentages.length !== paths.length)
      return fail(badRequest(`${path}.randomPercentages: give one percentage per path (${paths.length})`));
    const sum = percentages.reduce((a, b) => a + b, 0);
    if (sum !== 100) return fail(badRequest(`${path}.randomPercentages: the percentages must sum to 100 (they sum to ${sum})`));
  } else if (percentages !== undefined) {
    return fail(badRequest(`${path}.randomPercentages: only a random split (splitMode random) takes percentages`));
  }
  return ok({ ...config, splitMode: mode, paths });
}

/**
 * The config of a node of `type`, checked and normalised, or the error naming what is wrong
 * under `path`. Types this server cannot run are refused here, before anything is stored.
 */
export function checkNodeConfig(
  type: string,
  config: unknown,
  path: string,
  configPath = `${path}.config`,
): Result<{ nodeType: NodeType; config: Record<string, unknown> }> {
  if (!isRunnableNodeType(type)) return fail(nodeTypeRefusal(type, path));
  const decoded = decodeAt(CODECS[type], config ?? {}, configPath);
  if (decoded._tag === "Left") return decoded;
  if (type === "logic_branch") {
    const branch = branchConfig(decoded.right, configPath);
    return branch._tag === "Left" ? branch : ok({ nodeType: type, config: branch.right });
  }
  const violation = crossFieldViolation(type, decoded.right);
  return violation ? fail(badRequest(`${configPath}: ${violation}`)) : ok({ nodeType: type, config: decoded.right });
}
