import type { ListRepository } from "../lists/ports.js";
import { FRESH_READS, type Reads } from "../shared/batch-reads.js";
import type { Attributes, TaggedSubscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { TagRepository } from "../tags/ports.js";
import { normalizeTagName } from "../tags/model.js";
import type { SequenceActivityRepository } from "./activity-ports.js";
import type { CallWebhook } from "./call-webhook.js";
import { keepsEntryKey } from "./entry-key.js";
import type { ContactConditions, ConditionScope } from "./contact-conditions.js";
import type { RecordGoalConversions } from "./record-goal-conversions.js";
import { branchWay, nextNode } from "./graph-walk.js";
import { delayEnd } from "./delays.js";
import type { Enrollment, EnrollmentContext, EnrollmentState, StepRecord } from "./enrollment.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { fillReferences } from "./merge-values.js";
import { COMPLETION_NODE, TRIGGER_NODE, type Sequence, type SequenceNode } from "./model.js";
import { asText } from "./property-filters.js";
import { sequenceVariables, type SendSequenceEmail } from "./send-sequence-email.js";
import { sendingTime } from "./sending-window.js";
import type { StopConditions } from "./stop-conditions.js";
import { awaitedEvent, timeoutOf } from "./wait-for-event.js";

export { delayMs } from "./delays.js";

/** What one step did: the state it leads to and the record of it. */
export interface StepResult {
  readonly next: EnrollmentState;
  readonly record: StepRecord;
}

/** Activity conditions of a run look at its sequence since the run started. */
const scopeOf = (sequence: Sequence, enrollment: Enrollment): ConditionScope => ({ sequenceId: sequence.id, since: enrollment.startedAt });

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
    private readonly activity: SequenceActivityRepository,
    private readonly stopConditions: StopConditions,
    private readonly callWebhook: CallWebhook,
    private readonly conditions: ContactConditions,
    private readonly goals: RecordGoalConversions,
  ) {}

  /** `reads`: the engine's batch shares one read of what every email of a company has in common. */
  execute = async (sequence: Sequence, enrollment: Enrollment, contact: TaggedSubscriber, now: Date, reads: Reads = FRESH_READS): Promise<StepResult> => {
    const node = sequence.graph.nodes.find((candidate) => candidate.id === enrollment.currentNodeId);
    const finish = (status: "completed" | "failed" | "cancelled", outcome: string, reason: string | null, nodeType = node?.nodeType ?? "missing") => ({
      next: this.finished(sequence, enrollment, status, reason, now),
      record: this.record(enrollment.currentNodeId, nodeType, outcome, reason === null ? null : { reason }, now),
    });
    // A node deleted from a live graph: the contact's run ends there.
    if (!node) return finish("completed", "node_missing", "its step was deleted from the sequence");
    if (contact.status !== "active") return finish("cancelled", "cancelled", `the contact is ${contact.status}`);
    if (node.nodeType === TRIGGER_NODE || node.nodeType === COMPLETION_NODE) return this.runNode(sequence, enrollment, node, contact, now, reads);

    // The stop condition is checked before each step; a met one ends the run as completed, with its reason.
    const stop = await this.stopConditions.check(sequence, enrollment, contact);
    if (stop.reason !== null) {
      const stopped = finish("completed", "stopped", stop.reason);
      return { ...stopped, next: { ...stopped.next, failedReason: stop.reason } };
    }
    if (!stop.context) return this.runNode(sequence, enrollment, node, contact, now, reads);
    const result = await this.runNode(sequence, { ...enrollment, context: stop.context }, node, contact, now, reads);
    return result.next.context ? result : { ...result, next: { ...result.next, context: stop.context } };
  };

  private async runNode(
    sequence: Sequence,
    enrollment: Enrollment,
    node: SequenceNode,
    contact: TaggedSubscriber,
    now: Date,
    reads: Reads,
  ): Promise<StepResult> {
    const finish = (status: "completed" | "failed" | "cancelled", outcome: string, reason: string | null): StepResult => ({
      next: this.finished(sequence, enrollment, status, reason, now),
      record: this.record(node.id, node.nodeType, outcome, reason === null ? null : { reason }, now),
    });
    /** The node ends the run early (a wait timed out with timeoutAction exit, a webhook failed with onError exit): completed, with why. */
    const exit = (outcome: string, reason: string): StepResult => ({
      next: { ...this.finished(sequence, enrollment, "completed", null, now), failedReason: reason },
      record: this.record(node.id, node.nodeType, outcome, { reason }, now),
    });
    const go = (
      outcome: string,
      detail: Record<string, unknown> | null = null,
      options: { readonly way?: string; readonly emailSendId?: string; readonly context?: EnrollmentContext | undefined } = {},
    ): StepResult => {
      const { way, emailSendId = null, context } = options;
      const target = nextNode(sequence, node, way);
      const record = this.record(node.id, node.nodeType, outcome, detail, now, emailSendId);
      const withContext = context ? { context } : {};
      if (!target)
        return {
          next: { ...this.finished(sequence, enrollment, "failed", `no way out of node ${node.id}${way ? ` by '${way}'` : ""}`, now), ...withContext },
          record,
        };
      if (target.nodeType === COMPLETION_NODE)
        return { next: { ...this.finished(sequence, enrollment, "completed", null, now, target.id), ...withContext }, record };
      return { next: { ...this.running(enrollment), status: "active", currentNodeId: target.id, dueAt: now, waitUntil: null, ...withContext }, record };
    };
    /** The enrollment waits at this node until `until` (a due time in the database, not a timer). */
    const wait = (until: Date, outcome: string, detail: Record<string, unknown>, context?: EnrollmentContext): StepResult => ({
      next: { ...this.running(enrollment), status: "waiting", currentNodeId: node.id, dueAt: until, waitUntil: until, ...(context ? { context } : {}) },
      record: this.record(node.id, node.nodeType, outcome, { ...detail, until: until.toISOString() }, now),
    });

    const config = node.config;
    switch (node.nodeType) {
      case "trigger":
        return go("started");
      case COMPLETION_NODE:
        return finish("completed", "completed", null);
      case "action_email": {
        const sendAt = sendingTime(sequence, now);
        if (sendAt > now) return wait(sendAt, "outside_sending_window", {});
        const sent = await this.sendEmail.execute(sequence, node, enrollment, contact, reads);
        if (sent._tag === "Left") return finish("failed", "email_failed", sent.left.message);
        return go("email_queued", { subject: String(config.subject) }, { emailSendId: sent.right });
      }
      case "logic_delay": {
        if (enrollment.status === "waiting") return go("waited");
        const end = delayEnd(config, contact, now);
        if ("missing" in end) return end.missing === "exit" ? exit("exited", end.reason) : go("skipped", { reason: end.reason });
        if (end.until <= now) return go("waited", { until: end.until.toISOString() });
        return wait(end.until, "waiting", {});
      }
      case "logic_wait_for_event":
        return this.waitForEvent(enrollment, node, now, { go, wait, exit });
      case "action_webhook": {
        const called = await this.callWebhook.execute(sequence, node, enrollment, contact, sequenceVariables(contact, enrollment));
        if (called.ok) {
          const key = config.resultKey;
          const context =
            typeof key === "string" ? { ...enrollment.context, results: { ...(enrollment.context.results ?? {}), [key]: called.result } } : undefined;
          return go("webhook_called", { status: called.status }, { context });
        }
        if (config.onError === "exit") return exit("webhook_failed", called.reason);
        if (config.onError === "fail") return finish("failed", "webhook_failed", called.reason);
        return go("webhook_failed", { reason: called.reason });
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
        else await this.lists.removeMembers(sequence.companyId, listId, [contact.id], now);
        return go(node.nodeType === "action_add_to_list" ? "list_added" : "list_removed", { listId });
      }
      case "action_update_attributes":
        return go("attributes_updated", { fields: await this.updateAttributes(contact, enrollment, config, now) });
      case "logic_condition":
        return (await this.conditions.meets(contact, config, scopeOf(sequence, enrollment))) ? go("yes", null, { way: "yes" }) : go("no", null, { way: "no" });
      case "logic_branch": {
        const way = await branchWay(node, enrollment.id, (condition) => this.conditions.meets(contact, condition, scopeOf(sequence, enrollment)));
        return go("branched", { path: way }, { way });
      }
      default: {
        // A type stored before this server version knew it (every known type is handled above).
        const unknownType: string = node.nodeType;
        return finish("failed", "unsupported", `node type '${unknownType}' does not run on this server`);
      }
    }
  }

  /**
   * A logic_wait_for_event node: arriving, the enrollment waits until the timeout; a matching
   * event makes it due earlier (WakeWaitingEnrollments). Due again, it goes on when such an event
   * was recorded since the wait began, else at the timeout continues or exits (timeoutAction).
   */
  private async waitForEvent(
    enrollment: Enrollment,
    node: SequenceNode,
    now: Date,
    outcomes: {
      go: (outcome: string, detail: Record<string, unknown> | null, options: { readonly context?: EnrollmentContext }) => StepResult;
      wait: (until: Date, outcome: string, detail: Record<string, unknown>, context?: EnrollmentContext) => StepResult;
      exit: (outcome: string, reason: string) => StepResult;
    },
  ): Promise<StepResult> {
    const eventName = String(node.config.eventName);
    if (enrollment.status !== "waiting")
      return outcomes.wait(timeoutOf(node, now), "waiting_for_event", { eventName }, { ...enrollment.context, waitingSince: now.toISOString() });
    const { waitingSince, ...context } = enrollment.context;
    const event = await awaitedEvent(this.activity, enrollment, node, waitingSince ? new Date(waitingSince) : enrollment.updatedAt);
    if (event) return outcomes.go("event_received", { eventName, receivedAt: event.receivedAt.toISOString() }, { context });
    if (enrollment.waitUntil && enrollment.waitUntil > now) return outcomes.wait(enrollment.waitUntil, "still_waiting", { eventName });
    if (node.config.timeoutAction === "exit") return outcomes.exit("timed_out", `no '${eventName}' event came before the wait timed out`);
    return outcomes.go("timed_out", { eventName }, { context });
  }

  /**
   * Values may hold `{{event.x}}` (the trigger event) and `{{resultKey.x}}` (a webhook's answer).
   * A value that is only a reference to something missing leaves the field as it is: a missing property never erases what the contact holds (an explicit null does).
   */
  private async updateAttributes(contact: TaggedSubscriber, enrollment: Enrollment, config: Readonly<Record<string, unknown>>, now: Date): Promise<string[]> {
    const values = { ...(enrollment.context.results ?? {}), event: enrollment.context.event?.properties ?? {} };
    const resolve = (value: unknown): { readonly value: unknown } | null => {
      if (value === null) return { value: null };
      const resolved = fillReferences(value, values);
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
    const saved = await this.subscribers.update(
      {
        ...contact,
        ...names,
        ...(statusChange ? { status, unsubscribedAt: status === "unsubscribed" ? now : contact.unsubscribedAt } : {}),
        customAttributes: attributes as Attributes,
        updatedAt: now,
      },
      {},
    );
    await this.goals.onContactChanged(contact, saved, now);
    return fields;
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
