import type { ListRepository } from "../lists/ports.js";
import type { Attributes, TaggedSubscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { TagRepository } from "../tags/ports.js";
import { normalizeTagName } from "../tags/model.js";
import { keepsEntryKey } from "./entry-key.js";
import { meetsCondition, type ConditionLookups } from "./contact-conditions.js";
import type { Enrollment, EnrollmentState, StepRecord } from "./enrollment.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { COMPLETION_NODE, type Sequence, type SequenceNode } from "./model.js";
import { asText, valueAt } from "./property-filters.js";
import type { SendSequenceEmail } from "./send-sequence-email.js";

/** What one step did: the state it leads to and the record of it. */
export interface StepResult {
  readonly next: EnrollmentState;
  readonly record: StepRecord;
}

const MINUTE_MS = 60_000;

/** A logic_delay's duration (the forms enable accepts: delayDays/Hours/Minutes, delayMs, delay in duration mode). */
export function delayMs(config: Readonly<Record<string, unknown>>): number {
  if (typeof config.delayMs === "number") return config.delayMs;
  const parts = (config.delay as Record<string, unknown> | undefined) ?? {
    days: config.delayDays,
    hours: config.delayHours,
    minutes: config.delayMinutes,
  };
  return (Number(parts.days ?? 0) * 1440 + Number(parts.hours ?? 0) * 60 + Number(parts.minutes ?? 0)) * MINUTE_MS;
}

/** A stable number 0-99 for this enrollment at this node: a random split that runs again picks the same path. */
function bucket(enrollmentId: string, nodeId: string): number {
  let hash = 2166136261;
  for (const char of `${enrollmentId}:${nodeId}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % 100;
}

const EVENT_REFERENCE = /\{\{\s*event\.([\w.]+)\s*\}\}/g;

/** `{{event.x}}` filled from the trigger event: a value that is only a reference keeps the property's type. */
function withEventValues(value: unknown, properties: Readonly<Record<string, unknown>>): unknown {
  if (typeof value !== "string") return value;
  const whole = /^\{\{\s*event\.([\w.]+)\s*\}\}$/.exec(value);
  if (whole) return valueAt(properties, whole[1]!) ?? null;
  return value.replace(EVENT_REFERENCE, (_, path: string) => {
    const found = valueAt(properties, path);
    return found === undefined || found === null ? "" : asText(found);
  });
}

function typed(value: unknown, valueType: unknown): unknown {
  if (value === null) return null;
  if (valueType === "number") {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  if (valueType === "boolean") return value === true || value === "true" || value === 1 || value === "1";
  if (valueType === "text") return asText(value);
  return value;
}

/**
 * Runs the node an active or waiting enrollment is at, and says where it goes next. Actions on
 * the contact are idempotent (adding a tag twice is adding it once), and an email step finds
 * the send an earlier run of the same step queued, so running a step again changes nothing more.
 */
export class RunStep {
  constructor(
    private readonly sendEmail: SendSequenceEmail,
    private readonly subscribers: SubscriberRepository,
    private readonly tags: TagRepository,
    private readonly lists: ListRepository,
    private readonly enrollments: EnrollmentRepository,
  ) {}

  execute = async (sequence: Sequence, enrollment: Enrollment, contact: TaggedSubscriber, now: Date): Promise<StepResult> => {
    const node = sequence.graph.nodes.find((candidate) => candidate.id === enrollment.currentNodeId);
    const finish = (status: "completed" | "failed" | "cancelled", outcome: string, reason: string | null, nodeType = node?.nodeType ?? "missing") => ({
      next: this.finished(sequence, enrollment, status, reason, now),
      record: this.record(enrollment.currentNodeId, nodeType, outcome, reason === null ? null : { reason }, now),
    });
    // A node deleted from a live graph: the contact's run ends there.
    if (!node) return finish("completed", "node_missing", "its step was deleted from the sequence");
    if (contact.status !== "active") return finish("cancelled", "cancelled", `the contact is ${contact.status}`);

    const go = (outcome: string, detail: Record<string, unknown> | null = null, way?: string, emailSendId: string | null = null): StepResult => {
      const target = this.nextNode(sequence, node, way);
      const record = this.record(node.id, node.nodeType, outcome, detail, now, emailSendId);
      if (!target) return { next: this.finished(sequence, enrollment, "failed", `no way out of node ${node.id}${way ? ` by '${way}'` : ""}`, now), record };
      if (target.nodeType === COMPLETION_NODE) return { next: this.finished(sequence, enrollment, "completed", null, now, target.id), record };
      return { next: { ...this.running(enrollment), status: "active", currentNodeId: target.id, dueAt: now, waitUntil: null }, record };
    };

    const config = node.config;
    switch (node.nodeType) {
      case "trigger":
        return go("started");
      case COMPLETION_NODE:
        return finish("completed", "completed", null);
      case "action_email": {
        const sent = await this.sendEmail.execute(sequence, node, enrollment, contact);
        if (sent._tag === "Left") return finish("failed", "email_failed", sent.left.message);
        return go("email_queued", { subject: String(config.subject) }, undefined, sent.right);
      }
      case "logic_delay": {
        if (enrollment.status === "waiting") return go("waited");
        const until = new Date(now.getTime() + delayMs(config));
        return {
          next: { ...this.running(enrollment), status: "waiting", currentNodeId: node.id, dueAt: until, waitUntil: until },
          record: this.record(node.id, node.nodeType, "waiting", { until: until.toISOString() }, now),
        };
      }
      case "action_add_tag":
      case "action_remove_tag": {
        const name = typeof config.tagName === "string" ? config.tagName : ((await this.tags.find(sequence.companyId, String(config.tagId)))?.name ?? null);
        if (name === null) return go("skipped", { reason: "the tag no longer exists" });
        const tag = normalizeTagName(name);
        const changes = node.nodeType === "action_add_tag" ? { addTags: [tag] } : { removeTags: [tag] };
        await this.subscribers.update(contact, changes);
        return go(node.nodeType === "action_add_tag" ? "tag_added" : "tag_removed", { tag });
      }
      case "action_add_to_list":
      case "action_remove_from_list": {
        const listId = String(config.listId);
        if (!(await this.lists.find(sequence.companyId, listId))) return go("skipped", { reason: "the list no longer exists", listId });
        if (node.nodeType === "action_add_to_list") await this.lists.addMembers(sequence.companyId, listId, [contact.id], now);
        else await this.lists.removeMembers(sequence.companyId, listId, [contact.id]);
        return go(node.nodeType === "action_add_to_list" ? "list_added" : "list_removed", { listId });
      }
      case "action_update_attributes":
        return go("attributes_updated", { fields: await this.updateAttributes(contact, enrollment, config, now) });
      case "logic_condition":
        return (await meetsCondition(contact, config, this.lookups(sequence))) ? go("yes", null, "yes") : go("no", null, "no");
      case "logic_branch": {
        const way = await this.branchWay(sequence, enrollment, node, contact);
        return go("branched", { path: way }, way);
      }
      default:
        return finish("failed", "unsupported", `node type '${node.nodeType}' does not run on this server`);
    }
  };

  private lookups(sequence: Sequence): ConditionLookups {
    return {
      tagName: async (tagId) => (await this.tags.find(sequence.companyId, tagId))?.name ?? null,
      enrollments: this.enrollments,
    };
  }

  private async branchWay(sequence: Sequence, enrollment: Enrollment, node: SequenceNode, contact: TaggedSubscriber): Promise<string> {
    const paths = node.config.paths as Array<Record<string, unknown>>;
    if (node.config.splitMode === "random") {
      const percentages = node.config.randomPercentages as number[];
      const roll = bucket(enrollment.id, node.id);
      let upTo = 0;
      for (const [index, path] of paths.entries()) {
        upTo += percentages[index] ?? 0;
        if (roll < upTo) return String(path.id);
      }
      return String(paths[paths.length - 1]!.id);
    }
    for (const path of paths) if (await meetsCondition(contact, path, this.lookups(sequence))) return String(path.id);
    return "else";
  }

  /**
   * A value that is only an `{{event.x}}` reference the trigger event does not carry leaves the
   * field as it is: a missing property never erases what the contact holds (an explicit null does).
   */
  private async updateAttributes(contact: TaggedSubscriber, enrollment: Enrollment, config: Readonly<Record<string, unknown>>, now: Date): Promise<string[]> {
    const properties = enrollment.context.event?.properties ?? {};
    const resolve = (value: unknown): { readonly value: unknown } | null => {
      if (value === null) return { value: null };
      const resolved = withEventValues(value, properties);
      return resolved === null || resolved === undefined ? null : { value: resolved };
    };
    const attributes: Record<string, unknown> = { ...contact.customAttributes };
    const fields: string[] = [];
    for (const update of (config.customAttributeUpdates as Array<Record<string, unknown>> | undefined) ?? []) {
      const resolved = resolve(update.value);
      if (!resolved) continue;
      attributes[String(update.name)] = typed(resolved.value, update.valueType);
      fields.push(String(update.name));
    }
    const names: Partial<Record<"firstName" | "lastName", string | null>> = {};
    for (const field of ["firstName", "lastName"] as const) {
      if (config[field] === undefined) continue;
      const resolved = resolve(config[field]);
      if (!resolved) continue;
      names[field] = resolved.value === null ? null : asText(resolved.value);
      fields.push(field);
    }
    const status = config.status as TaggedSubscriber["status"] | undefined;
    const statusChange = status !== undefined && status !== contact.status;
    if (statusChange) fields.push("status");
    await this.subscribers.update(
      {
        ...contact,
        ...names,
        ...(statusChange ? { status, unsubscribedAt: status === "unsubscribed" ? now : contact.unsubscribedAt } : {}),
        customAttributes: attributes as Attributes,
        updatedAt: now,
      },
      {},
    );
    return fields;
  }

  /** The node after `node`, leaving by `way` (a condition's yes/no, a branch's path) or by its one plain edge. */
  private nextNode(sequence: Sequence, node: SequenceNode, way?: string): SequenceNode | undefined {
    const edge = sequence.graph.edges.find((candidate) => candidate.sourceNodeId === node.id && (way === undefined || candidate.condition === way));
    return edge ? sequence.graph.nodes.find((candidate) => candidate.id === edge.targetNodeId) : undefined;
  }

  private running(enrollment: Enrollment): Pick<EnrollmentState, "entryKey" | "failedReason" | "finishedAt"> {
    return { entryKey: enrollment.entryKey, failedReason: null, finishedAt: null };
  }

  /** A finished run: an unlimited sequence lets the contact in again from now on, a one_time one never (matching_field: never for the same value). */
  private finished(
    sequence: Sequence,
    enrollment: Enrollment,
    status: "completed" | "failed" | "cancelled",
    reason: string | null,
    now: Date,
    nodeId = enrollment.currentNodeId,
  ): EnrollmentState {
    return {
      status,
      currentNodeId: nodeId,
      dueAt: null,
      waitUntil: null,
      entryKey: keepsEntryKey(sequence) ? enrollment.entryKey : null,
      failedReason: status === "completed" ? null : reason,
      finishedAt: now,
    };
  }

  private record(
    nodeId: string,
    nodeType: string,
    outcome: string,
    detail: Record<string, unknown> | null,
    at: Date,
    emailSendId: string | null = null,
  ): StepRecord {
    return { nodeId, nodeType, outcome, detail, emailSendId, at };
  }
}
