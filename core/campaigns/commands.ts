import * as t from "io-ts";
import { arrayOf, EmailBlocks } from "../emails/blocks.js";
import { ContentHtml, ContentName, ContentPreviewText, ContentSubject, InlineSubscriber, nullableText } from "../emails/commands.js";
import { FilterLeafCodec, JoinOperatorCodec } from "../segments/commands.js";
import { boundedJsonObject } from "../shared/bounded-json.js";
import { boundedText, Email, integerBetween, IsoDate, nullable, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { offsetPageFields } from "../shared/offset-pagination.js";
import { ComputedListsCodec } from "./computed-lists.js";
import { CAMPAIGN_STATUSES, RECURRING_INTERVALS, TARGET_TYPES, type AudienceRule } from "./model.js";

/**
 * Inputs of the campaign routes (compat-reference §11). Types and enumerations are checked here
 * (422 with the path of the field); rules across fields (one body source, identity pairs, the
 * schedule's requirements) are the use cases' (400).
 */

export const CampaignPath = t.type({ campaignId: TrimmedNonEmpty }, "CampaignPath");

/** POST /campaigns/{id}/test: the one address the test goes to. */
export const SendCampaignTestCommand = t.exact(t.type({ to: required(Email) }), "SendCampaignTestCommand");
export type SendCampaignTestCommand = t.TypeOf<typeof SendCampaignTestCommand>;

export const GoalPath = t.type({ campaignId: TrimmedNonEmpty, goalId: TrimmedNonEmpty }, "GoalPath");

const goalProps = {
  description: optional(nullableText(2000)),
  /** Only `event` goals exist here; `attribute_change` is answered with a clear 400. */
  triggerType: optional(oneOf(["event", "attribute_change"] as const, "GoalTriggerType")),
  triggerEventName: optional(boundedText(200)),
  attributePath: t.unknown,
  attributeCondition: t.unknown,
  attributeValue: t.unknown,
  attributePreviousValue: t.unknown,
  eventPropertyName: optional(nullableText(200)),
  eventPropertyLabel: optional(nullableText(255)),
  attributionWindowHours: optional(integerBetween(1, 720)),
  isActive: optional(t.boolean),
};

/** POST /campaigns/{id}/goals. */
export const CreateCampaignGoalCommand = t.exact(
  t.intersection([t.type({ name: required(boundedText(255)) }), t.partial(goalProps)]),
  "CreateCampaignGoalCommand",
);
export type CreateCampaignGoalCommand = t.TypeOf<typeof CreateCampaignGoalCommand>;

/** PATCH /campaigns/{id}/goals/{goalId}: any field; null or "" clears description and the event property. */
export const UpdateCampaignGoalCommand = t.exact(t.partial({ name: optional(boundedText(255)), ...goalProps }), "UpdateCampaignGoalCommand");
export type UpdateCampaignGoalCommand = t.TypeOf<typeof UpdateCampaignGoalCommand>;

/** GET /campaigns. */
export const ListCampaignsQuery = t.exact(
  t.partial({ status: optional(oneOf(CAMPAIGN_STATUSES, "CampaignStatus")), label: optional(TrimmedNonEmpty), ...offsetPageFields }),
  "ListCampaignsQuery",
);
export type ListCampaignsQuery = t.TypeOf<typeof ListCampaignsQuery>;

/** List or segment IDs named by an audience. */
const Ids = (noun: string) => arrayOf(TrimmedNonEmpty, 1, 100, noun);
const Filters = arrayOf(FilterLeafCodec, 1, 100, "filters");

const RULE_CODECS = {
  all: t.exact(t.type({ type: t.literal("all") })),
  lists: t.exact(t.type({ type: t.literal("lists"), listIds: required(Ids("list IDs")) })),
  segments: t.exact(t.type({ type: t.literal("segments"), segmentIds: required(Ids("segment IDs")) })),
  filtered: t.exact(
    t.intersection([t.type({ type: t.literal("filtered"), filters: required(Filters) }), t.partial({ filterJoinOperator: optional(JoinOperatorCodec) })]),
  ),
} as const;
const RULE_TYPES = Object.keys(RULE_CODECS) as Array<keyof typeof RULE_CODECS>;

/** One include or exclude rule, read by its `type` (so a 422 speaks of the rule the caller meant). */
export const AudienceRuleCodec = withSchema(
  new t.Type<AudienceRule, AudienceRule, unknown>(
    "AudienceRule",
    (u): u is AudienceRule => RULE_TYPES.some((type) => RULE_CODECS[type].is(u)),
    (u, c) => {
      const type = typeof u === "object" && u !== null ? (u as { type?: unknown }).type : undefined;
      const codec = typeof type === "string" && (RULE_TYPES as string[]).includes(type) ? RULE_CODECS[type as keyof typeof RULE_CODECS] : undefined;
      if (!codec) return t.failure(type, [...c, { key: "type", type: t.string, actual: type }], `must be one of: ${RULE_TYPES.join(", ")}`);
      return codec.validate(u, c);
    },
    t.identity,
  ),
  {
    type: "object",
    description:
      'A rule: {type:"all"} (include only), {type:"lists", listIds}, {type:"segments", segmentIds} or {type:"filtered", filters, filterJoinOperator}',
    properties: { type: { type: "string", enum: RULE_TYPES } },
    required: ["type"],
  },
);
const Rules = arrayOf(AudienceRuleCodec, 0, 20, "rules");

/** `targetLists` in every compat form: all, lists, segment, filtered, or include/exclude rules. */
export const TargetListsCodec = t.exact(
  t.intersection([
    t.type({ type: oneOf(TARGET_TYPES, "TargetType") }),
    t.partial({
      listIds: optional(Ids("list IDs")),
      segmentId: optional(TrimmedNonEmpty),
      filters: optional(Filters),
      filterJoinOperator: optional(JoinOperatorCodec),
      include: optional(Rules),
      exclude: optional(Rules),
    }),
  ]),
  "TargetLists",
);
export type TargetListsInput = t.TypeOf<typeof TargetListsCodec>;

/** Largest array inside campaignData (compat: arrays of at most 500 items). */
export const MAX_CAMPAIGN_DATA_ARRAY = 500;

function longestArray(value: unknown): number {
  let longest = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== "object") continue;
    if (Array.isArray(current)) longest = Math.max(longest, current.length);
    pending.push(...(Object.values(current) as unknown[]));
  }
  return longest;
}

const campaignDataObject = boundedJsonObject({ maxKeys: 100, maxKeyLength: 100, maxValueLength: 100_000, maxDepth: 8 }, "CampaignData");
/** Campaign-wide merge values: a JSON object, arrays of at most 500 items. */
export const CampaignData = withSchema(
  new t.Type<Record<string, unknown>, Record<string, unknown>, unknown>(
    "CampaignData",
    campaignDataObject.is,
    (u, c) => {
      const decoded = campaignDataObject.validate(u, c);
      if (decoded._tag === "Right" && longestArray(decoded.right) > MAX_CAMPAIGN_DATA_ARRAY) {
        return t.failure(u, c, `arrays must hold at most ${MAX_CAMPAIGN_DATA_ARRAY} items`);
      }
      return decoded;
    },
    t.identity,
  ),
  { type: "object", additionalProperties: true, maxProperties: 100 },
);

const Labels = arrayOf(boundedText(100), 0, 50, "labels");
const Addresses = arrayOf(Email, 0, 10, "addresses");
const PersonName = boundedText(255);
const TrackingCode = nullableText(255);
const MaxRecipients = integerBetween(1, 10_000_000);
const SendTimeWindowHours = integerBetween(1, 24);

/** The fields create and update share. */
const editableProps = {
  subject: optional(ContentSubject),
  previewText: optional(ContentPreviewText),
  html: optional(ContentHtml),
  blocks: optional(EmailBlocks),
  /** Accepted only to answer it clearly: AI generation is not available on this server. */
  prompt: t.unknown,
  senderProfileId: optional(TrimmedNonEmpty),
  fromEmail: optional(Email),
  fromName: optional(PersonName),
  replyProfileId: optional(TrimmedNonEmpty),
  replyTo: optional(Email),
  replyToName: optional(PersonName),
  campaignData: optional(CampaignData),
  computedLists: optional(ComputedListsCodec),
  segmentId: optional(TrimmedNonEmpty),
  listIds: optional(Ids("list IDs")),
  labels: optional(Labels),
  sendTimeOptimization: optional(t.boolean),
  sendTimeWindowHours: optional(SendTimeWindowHours),
};

/** POST /campaigns. */
export const CreateCampaignCommand = t.exact(
  t.intersection([
    t.type({ name: required(ContentName) }),
    t.partial({
      ...editableProps,
      trackingCode: optional(TrackingCode),
      templateId: optional(TrimmedNonEmpty),
      targetLists: optional(TargetListsCodec),
      ccEmails: optional(Addresses),
      bccEmails: optional(Addresses),
      maxRecipients: optional(MaxRecipients),
      /** `sent` with `sentAt` archives a campaign sent elsewhere: nothing is delivered. */
      status: optional(oneOf(["draft", "sent"] as const, "CreatableCampaignStatus")),
      sentAt: optional(IsoDate),
    }),
  ]),
  "CreateCampaignCommand",
);
export type CreateCampaignCommand = t.TypeOf<typeof CreateCampaignCommand>;

/** PUT /campaigns/{id}: any field; null clears targetLists, ccEmails, bccEmails, maxRecipients; "" or null clears trackingCode. */
export const UpdateCampaignCommand = t.exact(
  t.partial({
    name: optional(ContentName),
    ...editableProps,
    trackingCode: optional(TrackingCode),
    targetLists: optional(nullable(TargetListsCodec)),
    ccEmails: optional(nullable(Addresses)),
    bccEmails: optional(nullable(Addresses)),
    maxRecipients: optional(nullable(MaxRecipients)),
  }),
  "UpdateCampaignCommand",
);
export type UpdateCampaignCommand = t.TypeOf<typeof UpdateCampaignCommand>;

/** POST /campaigns/{id}/schedule. */
export const ScheduleCampaignCommand = t.exact(
  t.intersection([
    t.type({ scheduledAt: required(IsoDate) }),
    t.partial({
      targetLists: optional(TargetListsCodec),
      listIds: optional(Ids("list IDs")),
      sendTimeOptimization: optional(t.boolean),
      spreadOverHours: optional(integerBetween(1, 72)),
      sendInRecipientTimezone: optional(t.boolean),
      scheduledTimezone: optional(boundedText(64)),
      recurringInterval: optional(oneOf(RECURRING_INTERVALS, "RecurringInterval")),
      sendTimeWindowHours: optional(SendTimeWindowHours),
      maxRecipients: optional(nullable(MaxRecipients)),
    }),
  ]),
  "ScheduleCampaignCommand",
);
export type ScheduleCampaignCommand = t.TypeOf<typeof ScheduleCampaignCommand>;

/** POST /campaigns/{id}/duplicate. */
export const DuplicateCampaignCommand = t.exact(
  t.partial({ mode: optional(oneOf(["campaign", "ab_test", "variant"] as const, "DuplicateMode")), variantId: optional(TrimmedNonEmpty) }),
  "DuplicateCampaignCommand",
);
export type DuplicateCampaignCommand = t.TypeOf<typeof DuplicateCampaignCommand>;

/** POST /campaigns/{id}/preview-computed-data: a stored contact or an inline one. */
export const PreviewComputedDataCommand = t.exact(
  t.partial({ subscriberId: optional(TrimmedNonEmpty), subscriber: optional(InlineSubscriber) }),
  "PreviewComputedDataCommand",
);
export type PreviewComputedDataCommand = t.TypeOf<typeof PreviewComputedDataCommand>;
