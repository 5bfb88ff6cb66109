import * as t from "io-ts";
import { Id, JsonArray, JsonObject, NullableString, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { COMPLETION_NODE, TRIGGER_NODE, type Sequence, type SequenceGraph, type SequenceNode, type SequenceStatus } from "./model.js";

/** The sequence records of the API (compat-reference §10). */

const NullableObject = t.union([JsonObject, t.null]);

export const SequenceNodeView = view(
  {
    id: Id,
    automationId: Id,
    nodeType: t.string,
    config: JsonObject,
    position: view({ x: t.number, y: t.number }),
    updatedAt: Timestamp,
    /** Place of the step on the way from the trigger (1 for the first step); null for the trigger and completion nodes. */
    structuralStepNumber: t.union([t.number, t.null]),
  },
  "SequenceNode",
);
export type SequenceNodeView = t.TypeOf<typeof SequenceNodeView>;

export const SequenceEdgeView = viewWithOptional({ sourceNodeId: Id, targetNodeId: Id }, { condition: t.string }, "SequenceEdge");

export const SequenceEmailView = view(
  {
    nodeId: Id,
    nodeType: t.string,
    /** The email's content lives on its node: its ID is the node's. */
    emailId: Id,
    subject: t.string,
    previewText: NullableString,
    emailPreset: NullableString,
    html: NullableString,
    blocks: t.union([JsonArray, t.null]),
    stepNumber: t.number,
    structuralStepNumber: t.number,
    abTest: t.null,
  },
  "SequenceEmail",
);

const summaryProps = {
  id: Id,
  name: t.string,
  description: NullableString,
  status: t.string,
  effectiveStatus: t.string,
  effectiveStatusSummary: t.string,
  acceptsNewEnrollments: t.boolean,
  processesExistingEnrollments: t.boolean,
  enrollmentPaused: t.boolean,
  trigger: t.string,
  triggerConfig: JsonObject,
  labels: t.readonlyArray(t.string),
  userCancellable: t.boolean,
  bccEmails: t.readonlyArray(t.string),
  senderProfileId: NullableString,
  fromEmail: NullableString,
  fromName: NullableString,
  replyProfileId: NullableString,
  replyToEmail: NullableString,
  replyToName: NullableString,
  enrollmentMode: t.string,
  enrollmentFieldPath: NullableString,
  sendingWindow: NullableObject,
  pausedAt: t.null,
  pauseReason: t.null,
  emailCount: t.number,
  nodeCount: t.number,
  graphRevision: t.number,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const SequenceSummaryView = view(summaryProps, "SequenceSummary");
export type SequenceSummaryView = t.TypeOf<typeof SequenceSummaryView>;

const detailProps = {
  ...summaryProps,
  nodes: t.readonlyArray(SequenceNodeView),
  edges: t.readonlyArray(SequenceEdgeView),
  emails: t.readonlyArray(SequenceEmailView),
  stopCondition: NullableObject,
  abTestCount: t.number,
  discountCount: t.number,
  subscriberUpdateCount: t.number,
  enrichmentStatus: t.string,
  enrichedCount: t.number,
};
export const SequenceDetailView = view(detailProps, "Sequence");
export type SequenceDetailView = t.TypeOf<typeof SequenceDetailView>;

/** What a PUT adds to the detail: what the edit did. */
export const EditedSequenceView = viewWithOptional(
  detailProps,
  {
    graphEditAction: t.string,
    movedNodeId: Id,
    deletedNodeId: Id,
    deletedNodeIds: t.readonlyArray(Id),
    duplicatedNodeId: Id,
    insertedNodeIds: t.readonlyArray(Id),
    insertedEmailIds: t.readonlyArray(Id),
    insertedEmailCount: t.number,
    updatedNodeIds: t.readonlyArray(Id),
    addedBranchNodeId: Id,
    addedBranchPathNodeIds: t.readonlyArray(Id),
    migratedRecipientCount: t.number,
    completedRecipientCount: t.number,
  },
  "EditedSequence",
);
export type EditedSequenceView = t.TypeOf<typeof EditedSequenceView>;

const EFFECTIVE: Record<SequenceStatus, { effectiveStatus: string; summary: string }> = {
  draft: { effectiveStatus: "draft", summary: "Draft: not running; enable it to start enrolling contacts." },
  active: { effectiveStatus: "live", summary: "Live: enrolls new contacts and moves current ones along." },
  paused: { effectiveStatus: "paused", summary: "Paused: enrolls no one, and current contacts wait where they are until it is enabled again." },
  archived: { effectiveStatus: "archived", summary: "Archived: not running; unarchive it to edit it again as a draft." },
};

/** The status fields of a sequence (also the answer of enable, disable, pause- and resume-enrollments). */
export const SequenceStatusView = view(
  {
    status: t.string,
    effectiveStatus: t.string,
    effectiveStatusSummary: t.string,
    acceptsNewEnrollments: t.boolean,
    processesExistingEnrollments: t.boolean,
    enrollmentPaused: t.boolean,
  },
  "SequenceStatusFields",
);
export type SequenceStatusView = t.TypeOf<typeof SequenceStatusView>;

export function statusFields(sequence: Sequence): SequenceStatusView {
  const live = sequence.status === "active";
  const effective = live && sequence.enrollmentPaused ? "enrollment_paused" : EFFECTIVE[sequence.status].effectiveStatus;
  return {
    status: sequence.status,
    effectiveStatus: effective,
    effectiveStatusSummary: effective === "enrollment_paused" ? "Live for current contacts; new enrollments are paused." : EFFECTIVE[sequence.status].summary,
    acceptsNewEnrollments: live && !sequence.enrollmentPaused,
    processesExistingEnrollments: live,
    enrollmentPaused: sequence.enrollmentPaused,
  };
}

/** The steps in the order a contact meets them (breadth first from the trigger), numbered from 1. */
export function stepNumbers(graph: SequenceGraph): Map<string, number> {
  const trigger = graph.nodes.find((node) => node.nodeType === TRIGGER_NODE);
  const numbers = new Map<string, number>();
  if (!trigger) return numbers;
  const seen = new Set([trigger.id]);
  const queue = [trigger.id];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const edge of graph.edges) {
      if (edge.sourceNodeId !== current || seen.has(edge.targetNodeId)) continue;
      seen.add(edge.targetNodeId);
      queue.push(edge.targetNodeId);
      const node = graph.nodes.find((candidate) => candidate.id === edge.targetNodeId);
      if (node && node.nodeType !== COMPLETION_NODE) numbers.set(node.id, numbers.size + 1);
    }
  }
  return numbers;
}

const emailNodes = (sequence: Sequence) => sequence.graph.nodes.filter((node) => node.nodeType === "action_email");

export const toSequenceSummaryView = (sequence: Sequence): SequenceSummaryView => ({
  id: sequence.id,
  name: sequence.name,
  description: sequence.description,
  ...statusFields(sequence),
  trigger: sequence.trigger,
  triggerConfig: { ...sequence.triggerConfig },
  labels: sequence.labels,
  userCancellable: sequence.userCancellable,
  bccEmails: sequence.bccEmails,
  senderProfileId: sequence.senderProfileId,
  fromEmail: sequence.fromEmail,
  fromName: sequence.fromName,
  replyProfileId: sequence.replyProfileId,
  replyToEmail: sequence.replyToEmail,
  replyToName: sequence.replyToName,
  enrollmentMode: sequence.enrollmentMode,
  enrollmentFieldPath: sequence.enrollmentFieldPath,
  sendingWindow: sequence.sendingWindow ? { ...sequence.sendingWindow } : null,
  pausedAt: null,
  pauseReason: null,
  emailCount: emailNodes(sequence).length,
  nodeCount: sequence.graph.nodes.length,
  graphRevision: sequence.graphRevision,
  createdAt: sequence.createdAt.toISOString(),
  updatedAt: sequence.updatedAt.toISOString(),
});

const toNodeView =
  (sequence: Sequence, numbers: Map<string, number>) =>
  (node: SequenceNode): SequenceNodeView => ({
    id: node.id,
    automationId: sequence.id,
    nodeType: node.nodeType,
    config: { ...node.config },
    position: { x: node.position.x, y: node.position.y },
    updatedAt: node.updatedAt.toISOString(),
    structuralStepNumber: numbers.get(node.id) ?? null,
  });

export function toSequenceDetailView(sequence: Sequence): SequenceDetailView {
  const numbers = stepNumbers(sequence.graph);
  const emails = emailNodes(sequence).sort((a, b) => (numbers.get(a.id) ?? 0) - (numbers.get(b.id) ?? 0));
  const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);
  return {
    ...toSequenceSummaryView(sequence),
    nodes: sequence.graph.nodes.map(toNodeView(sequence, numbers)),
    edges: sequence.graph.edges.map((edge) => ({ ...edge })),
    emails: emails.map((node, index) => ({
      nodeId: node.id,
      nodeType: node.nodeType,
      emailId: node.id,
      subject: String(node.config.subject),
      previewText: stringOrNull(node.config.previewText),
      emailPreset: stringOrNull(node.config.emailPreset),
      html: stringOrNull(node.config.html),
      blocks: Array.isArray(node.config.blocks) ? node.config.blocks : null,
      stepNumber: index + 1,
      structuralStepNumber: numbers.get(node.id) ?? 0,
      abTest: null,
    })),
    stopCondition: sequence.stopCondition ? { ...sequence.stopCondition } : null,
    abTestCount: 0,
    discountCount: 0,
    subscriberUpdateCount: sequence.graph.nodes.filter((node) => node.nodeType === "action_update_attributes").length,
    // Content is never generated in the background here: nothing is left to enrich.
    enrichmentStatus: "complete",
    enrichedCount: 0,
  };
}
