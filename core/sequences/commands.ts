import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { headerText } from "../shared/header-text.js";
import { boundedJsonObject, PROPERTY_LIMITS } from "../shared/bounded-json.js";
import { boundedText, Email, IsoDate, nullable, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { offsetPageFields } from "../shared/offset-pagination.js";
import { JsonObject } from "../shared/view-fields.js";
import { TimeZone } from "../subscribers/commands.js";
import { TimeOfDay, WEEKDAYS } from "./node-configs.js";
import { MAX_SEQUENCE_DESCRIPTION_LENGTH, MAX_SEQUENCE_NAME_LENGTH, MAX_STEPS_PER_REQUEST, SEQUENCE_STATUSES } from "./model.js";
import { PropertyFilterCodec as PropertyFilter } from "./property-filters.js";
import { TRIGGERS } from "./triggers.js";

/**
 * Inputs of the sequence routes (compat-reference §10). Types and enumerations are checked here
 * (422); node configs, steps and the graph's rules by the use cases (400), which know the graph.
 */

const Name = boundedText(MAX_SEQUENCE_NAME_LENGTH);
const Description = nullable(boundedText(MAX_SEQUENCE_DESCRIPTION_LENGTH));
const Id = boundedText(100);
const Labels = boundedArray(boundedText(100), 0, 50);
const BccEmails = boundedArray(Email, 0, 10);
const Steps = boundedArray(t.unknown, 0, MAX_STEPS_PER_REQUEST);
const FieldPath = boundedText(255);

export const SendingWindow = t.exact(
  t.partial({
    enabled: optional(t.boolean),
    timezone: optional(TimeZone),
    startTime: optional(TimeOfDay),
    endTime: optional(TimeOfDay),
    days: optional(boundedArray(oneOf(WEEKDAYS), 0, 7)),
  }),
  "SendingWindow",
);

const MatchConfig = nullable(boundedJsonObject(PROPERTY_LIMITS, "StopConditionMatchConfig"));
export const StopCondition = t.exact(
  t.intersection([
    t.type({
      type: required(
        oneOf(["none", "has_tag", "does_not_have_tag", "added_to_list", "removed_from_list", "entered_segment", "field_changed", "event_received"] as const),
      ),
    }),
    t.partial({ value: optional(nullable(boundedText(255))), matchConfig: optional(MatchConfig) }),
  ]),
  "StopCondition",
);

/** The trigger's fields, flat as the client sends them (triggers.ts keeps those of the chosen trigger). */
const triggerFields = {
  trigger: optional(oneOf(TRIGGERS, "Trigger")),
  listId: optional(Id),
  listScope: optional(oneOf(["any_contact", "any_list"] as const)),
  tagName: optional(boundedText(100)),
  segmentId: optional(Id),
  stopOnSegmentExit: optional(t.boolean),
  eventName: optional(boundedText(255)),
  propertyFilters: optional(boundedArray(PropertyFilter, 0, 10)),
  inactiveDays: optional(t.number),
  inactivityBaseline: optional(oneOf(["sequence_created_at", "subscriber_created_at"] as const)),
  minCount: optional(t.number),
  timeWindowDays: optional(t.number),
  integrationSlug: optional(t.unknown),
  integrationEventKey: optional(t.unknown),
  customIntegration: optional(t.unknown),
};
export const TRIGGER_FIELD_NAMES = Object.keys(triggerFields).filter((key) => key !== "trigger");

const identityFields = {
  senderProfileId: optional(nullable(Id)),
  fromEmail: optional(nullable(Email)),
  fromName: optional(nullable(headerText(255))),
  replyProfileId: optional(nullable(Id)),
  replyTo: optional(nullable(Email)),
  replyToName: optional(nullable(headerText(255))),
};

/** AI generation fields of the hosted product: accepted only to answer them clearly (400). */
const aiFields = { goal: optional(t.unknown), emailCount: optional(t.unknown), durationDays: optional(t.unknown), emailStyle: optional(t.unknown) };

/** POST /sequences. */
export const CreateSequenceCommand = t.exact(
  t.intersection([
    t.type({ name: required(Name) }),
    t.partial({
      description: optional(Description),
      userCancellable: optional(t.boolean),
      bccEmails: optional(BccEmails),
      labels: optional(Labels),
      ...identityFields,
      ...triggerFields,
      enrollmentMode: optional(oneOf(["unlimited", "one_time", "matching_field"] as const)),
      enrollmentFieldPath: optional(FieldPath),
      sendingWindow: optional(SendingWindow),
      stopCondition: optional(nullable(StopCondition)),
      steps: optional(Steps),
      ...aiFields,
    }),
  ]),
  "CreateSequenceCommand",
);
export type CreateSequenceCommand = t.TypeOf<typeof CreateSequenceCommand>;

const NodeUpdate = t.exact(
  t.type({
    nodeId: required(Id),
    changes: required(t.exact(t.partial({ config: optional(JsonObject), position: optional(t.type({ x: t.number, y: t.number })) }), "NodeChanges")),
    expectedUpdatedAt: required(IsoDate),
  }),
  "NodeUpdate",
);

const Edge = t.exact(
  t.intersection([t.type({ sourceNodeId: required(Id), targetNodeId: required(Id) }), t.partial({ condition: optional(nullable(boundedText(64))) })]),
  "Edge",
);

export const GraphEdit = t.exact(
  t.intersection([
    t.type({
      action: required(oneOf(["move_node", "delete_node", "duplicate_node", "replace_edges"] as const, "GraphEditAction")),
      expectedRevision: required(t.number),
    }),
    t.partial({
      nodeId: optional(Id),
      afterNodeId: optional(Id),
      beforeNodeId: optional(Id),
      edges: optional(boundedArray(Edge, 0, 400)),
    }),
  ]),
  "GraphEdit",
);
export type GraphEdit = t.TypeOf<typeof GraphEdit>;

const ContentEdits = boundedArray(JsonObject, 1, 100);

/** PUT /sequences/{sequenceId}: settings (null clears the nullable ones) and at most one content or graph form. */
export const UpdateSequenceCommand = t.exact(
  t.partial({
    name: optional(Name),
    description: optional(Description),
    userCancellable: optional(t.boolean),
    bccEmails: optional(nullable(BccEmails)),
    labels: optional(Labels),
    ...identityFields,
    ...triggerFields,
    enrollmentMode: optional(oneOf(["unlimited", "one_time", "matching_field"] as const)),
    enrollmentFieldPath: optional(nullable(FieldPath)),
    sendingWindow: optional(nullable(SendingWindow)),
    stopCondition: optional(nullable(StopCondition)),
    enrollmentPaused: optional(t.boolean),
    confirmLiveChange: optional(t.boolean),
    confirmStructuralChange: optional(t.boolean),
    nodeUpdates: optional(boundedArray(NodeUpdate, 1, 100)),
    insertSteps: optional(
      t.exact(
        t.intersection([
          t.type({ steps: required(boundedArray(t.unknown, 1, MAX_STEPS_PER_REQUEST)) }),
          t.partial({ afterNodeId: optional(Id), expectedRevision: optional(t.number) }),
        ]),
        "InsertSteps",
      ),
    ),
    graphEdit: optional(GraphEdit),
    emails: optional(ContentEdits),
    steps: optional(ContentEdits),
    subscriberUpdateSteps: optional(ContentEdits),
    branch: optional(JsonObject),
    /** SMS is not supported by this server: accepted only to answer it clearly (400). */
    smsSteps: optional(t.unknown),
    ...aiFields,
  }),
  "UpdateSequenceCommand",
);
export type UpdateSequenceCommand = t.TypeOf<typeof UpdateSequenceCommand>;

/** GET /sequences. */
export const ListSequencesQuery = t.exact(
  t.partial({
    status: optional(oneOf(SEQUENCE_STATUSES, "SequenceStatus")),
    search: optional(boundedText(255)),
    labels: optional(boundedText(2000)),
    ...offsetPageFields,
  }),
  "ListSequencesQuery",
);
export type ListSequencesQuery = t.TypeOf<typeof ListSequencesQuery>;

export const SequencePath = t.type({ sequenceId: TrimmedNonEmpty }, "SequencePath");

/** POST /sequences/{sequenceId}/duplicate. */
export const DuplicateSequenceCommand = t.exact(t.partial({ name: optional(Name) }), "DuplicateSequenceCommand");
export type DuplicateSequenceCommand = t.TypeOf<typeof DuplicateSequenceCommand>;
