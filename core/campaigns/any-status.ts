import type { FilterNode } from "../segments/model.js";
import type { SegmentDefinition } from "../segments/ports.js";
import { SUBSCRIBER_STATUSES } from "../subscribers/model.js";
import { leaf } from "./audience.js";

const isActiveOnly = (node: FilterNode): boolean => node.kind === "filter" && node.field === "status" && node.operator === "is" && node.value === "active";

/**
 * The audience with contacts of every status (resolveAudience keeps active ones only), so that
 * the unsubscribed and bounced contacts it would have reached can be counted as left out.
 */
export function withAnyStatus(definition: SegmentDefinition): SegmentDefinition {
  const anyStatus: FilterNode = {
    kind: "group",
    id: "any-status",
    joinOperator: "or",
    children: SUBSCRIBER_STATUSES.map((status) => leaf("status", "is", status)),
  };
  return { ...definition, root: { ...definition.root, children: definition.root.children.map((child) => (isActiveOnly(child) ? anyStatus : child)) } };
}
