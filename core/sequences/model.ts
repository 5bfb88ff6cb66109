import { notFound } from "../shared/errors.js";

/** Limits of one sequence (the README's Limits table). */
export const MAX_SEQUENCE_NAME_LENGTH = 255;
export const MAX_SEQUENCE_DESCRIPTION_LENGTH = 2000;
export const MAX_GRAPH_NODES = 200;
export const MAX_GRAPH_EDGES = 400;
export const MAX_STEPS_PER_REQUEST = 50;

export const SEQUENCE_STATUSES = ["draft", "active", "paused", "archived"] as const;
export type SequenceStatus = (typeof SEQUENCE_STATUSES)[number];

export const TRIGGER_NODE = "trigger";
export const COMPLETION_NODE = "completion";

/** Node types this server can run (once the engine exists): their configs are checked on every write. */
export const RUNNABLE_NODE_TYPES = [
  "action_email",
  "action_add_tag",
  "action_remove_tag",
  "action_add_to_list",
  "action_remove_from_list",
  "action_update_attributes",
  "action_webhook",
  "logic_delay",
  "logic_wait_for_event",
  "logic_condition",
  "logic_branch",
] as const;
export type RunnableNodeType = (typeof RUNNABLE_NODE_TYPES)[number];

/** Node types of the hosted product that need services this server does not have (SMS, AI, discounts, A/B tests). */
export const UNSUPPORTED_NODE_TYPES = ["action_sms", "action_ai", "action_create_discount", "action_ab_test"] as const;

export type NodeType = typeof TRIGGER_NODE | typeof COMPLETION_NODE | RunnableNodeType;

export interface Position {
  readonly x: number;
  readonly y: number;
}

export interface SequenceNode {
  readonly id: string;
  readonly nodeType: NodeType;
  /** Checked against the node type's codec before it is stored (node-configs.ts). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly position: Position;
  /** The node's concurrency token: `nodeUpdates` name it as `expectedUpdatedAt`. */
  readonly updatedAt: Date;
}

/**
 * A directed edge. `condition` names which way out of a logic node it is: `yes` / `no` after a
 * `logic_condition`, a path ID (or `else`) after a `logic_branch`; other nodes have one plain edge out.
 */
export interface SequenceEdge {
  readonly sourceNodeId: string;
  readonly targetNodeId: string;
  readonly condition?: string;
}

export interface SequenceGraph {
  readonly nodes: readonly SequenceNode[];
  readonly edges: readonly SequenceEdge[];
}

/** When a contact enters the sequence: `trigger` and its own fields (`triggerConfig`). */
export interface TriggerSettings {
  readonly trigger: string;
  readonly triggerConfig: Readonly<Record<string, unknown>>;
}

export interface Sequence extends TriggerSettings {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: SequenceStatus;
  readonly enrollmentPaused: boolean;
  readonly labels: readonly string[];
  readonly userCancellable: boolean;
  readonly bccEmails: readonly string[];
  readonly senderProfileId: string | null;
  readonly fromEmail: string | null;
  readonly fromName: string | null;
  readonly replyProfileId: string | null;
  readonly replyToEmail: string | null;
  readonly replyToName: string | null;
  readonly enrollmentMode: "unlimited" | "one_time" | "matching_field";
  readonly enrollmentFieldPath: string | null;
  readonly sendingWindow: Readonly<Record<string, unknown>> | null;
  readonly stopCondition: Readonly<Record<string, unknown>> | null;
  readonly graph: SequenceGraph;
  /** Goes up by one with every change of the graph: `graphEdit` names it as `expectedRevision`. */
  readonly graphRevision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const SEQUENCE_NOT_FOUND = notFound("Sequence not found");
