import * as t from "io-ts";
import { contactVariables } from "../emails/merge-variables.js";
import { previewLinkPlaceholder } from "../emails/preview-merge.js";
import type { RenderEmail } from "../emails/render-email.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { boundedText, Email, integerBetween, optional } from "../shared/codecs.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { ContactConditions } from "./contact-conditions.js";
import { EnrollContact } from "./enroll-contact.js";
import { ACTION_TEXT, branchWay, nextNode } from "./graph-walk.js";
import { COMPLETION_NODE, SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import { emailContentOf } from "./node-content.js";
import type { SequenceRepository } from "./ports.js";
import { delayMs } from "./run-step.js";

export const MAX_SIMULATED_EMAILS = 25;
/** Nodes walked at most (a graph may loop through its delays). */
const MAX_SIMULATED_STEPS = 500;
const DAY_MS = 86_400_000;

/** GET /sequences/{id}/simulate. */
export const SimulateSequenceQuery = t.exact(
  t.partial({ subscriberId: optional(boundedText(100)), email: optional(Email), limit: optional(integerBetween(1, MAX_SIMULATED_EMAILS)) }),
  "SimulateSequenceQuery",
);
export type SimulateSequenceQuery = t.TypeOf<typeof SimulateSequenceQuery>;

export interface Simulation {
  readonly sequenceId: string;
  readonly subscriberId: string;
  readonly email: string;
  readonly startsAt: string;
  /** The emails the contact would receive, in order, with their rendered subjects. */
  readonly emails: ReadonlyArray<{ nodeId: string; subject: string; sendAt: string }>;
  /** Every node on the way, with what it would do. */
  readonly path: ReadonlyArray<{ nodeId: string; nodeType: string; at: string; outcome: string; message: string }>;
  /** When the contact would finish the sequence; null when the walk stopped before (limit reached). */
  readonly completesAt: string | null;
  readonly truncated: boolean;
}

/**
 * What a contact entering now would receive and when, without sending or changing anything:
 * the graph walked from its first step, delays added up, conditions and branches read from the
 * contact as it is now (actions on the way are not applied, so later conditions do not see
 * them), a wait for an event assumed to time out. Stops after `limit` emails (10 by default).
 */
export class SimulateSequence {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly conditions: ContactConditions,
    private readonly render: RenderEmail,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, sequenceId: string, query: SimulateSequenceQuery): Promise<Result<Simulation>> => {
    if ((query.subscriberId === undefined) === (query.email === undefined)) return fail(badRequest("Give subscriberId or email: the contact to simulate"));
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const contact =
      query.subscriberId !== undefined
        ? await this.subscribers.findById(actor.companyId, query.subscriberId)
        : await this.subscribers.findByEmail(actor.companyId, query.email!);
    if (!contact) return fail(notFound("Subscriber not found"));
    return ok(await this.walk(sequence, contact, query.limit ?? 10));
  };

  private async walk(sequence: Sequence, contact: TaggedSubscriber, limit: number): Promise<Simulation> {
    const start = this.clock.now();
    let at = start.getTime();
    const emails: Array<Simulation["emails"][number]> = [];
    const path: Array<Simulation["path"][number]> = [];
    let node = sequence.graph.nodes.find((candidate) => candidate.id === EnrollContact.firstNodeId(sequence));
    for (let steps = 0; node && steps < MAX_SIMULATED_STEPS; steps++) {
      const current = node;
      const log = (outcome: string, message: string) =>
        path.push({ nodeId: current.id, nodeType: current.nodeType, at: new Date(at).toISOString(), outcome, message });
      if (current.nodeType === COMPLETION_NODE) {
        log("completed", "The contact finishes the sequence");
        return this.result(sequence, contact, start, emails, path, new Date(at).toISOString());
      }
      if (emails.length >= limit) break;
      let way: string | undefined;
      const config = current.config;
      switch (current.nodeType) {
        case "action_email": {
          const subject = await this.subject(sequence, current, contact);
          emails.push({ nodeId: current.id, subject, sendAt: new Date(at).toISOString() });
          log("email", `Sends '${subject}'`);
          break;
        }
        case "logic_delay": {
          const wait = delayMs(config);
          log("delay", `Waits ${Math.round(wait / 60_000)} minutes`);
          at += wait;
          break;
        }
        case "logic_wait_for_event": {
          const days = typeof config.timeoutDays === "number" ? config.timeoutDays : 7;
          log("wait_for_event", `Waits up to ${days} days for '${String(config.eventName)}'; assumed not to come`);
          at += days * DAY_MS;
          if (config.timeoutAction === "exit") return this.result(sequence, contact, start, emails, path, new Date(at).toISOString());
          break;
        }
        case "logic_condition": {
          way = (await this.conditions.meets(contact, config, null)) ? "yes" : "no";
          log(way, `The condition is ${way === "yes" ? "met" : "not met"} today`);
          break;
        }
        case "logic_branch": {
          way = await branchWay(current, contact.id, (condition) => this.conditions.meets(contact, condition, null));
          log("branched", `Takes path ${way}`);
          break;
        }
        default: {
          const describe = ACTION_TEXT[current.nodeType];
          log("action", describe ? describe(config) : current.nodeType);
        }
      }
      node = nextNode(sequence, current, way);
    }
    return this.result(sequence, contact, start, emails, path, null);
  }

  private async subject(sequence: Sequence, node: Parameters<typeof emailContentOf>[0], contact: TaggedSubscriber): Promise<string> {
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.render.execute(sequence.companyId, {
      content: emailContentOf(node),
      variables: { event: {}, ...contactVariables(contact) },
      links: { unsubscribeUrl: placeholder },
    });
    return rendered._tag === "Right" ? rendered.right.subject : String(node.config.subject);
  }

  private result(
    sequence: Sequence,
    contact: TaggedSubscriber,
    start: Date,
    emails: Simulation["emails"],
    path: Simulation["path"],
    completesAt: string | null,
  ): Simulation {
    return {
      sequenceId: sequence.id,
      subscriberId: contact.id,
      email: contact.email,
      startsAt: start.toISOString(),
      emails,
      path,
      completesAt,
      truncated: completesAt === null,
    };
  }
}
