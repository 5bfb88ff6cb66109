import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateSequenceCommand } from "./commands.js";
import { eventTrackingOf, type EventTracking } from "./event-tracking.js";
import { validateGraph } from "./graph.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { checkReferences } from "./references.js";
import { applySettings, DEFAULT_SETTINGS } from "./settings.js";
import { linearGraph, nodesFromSteps } from "./steps.js";
import { toSequenceDetailView, type SequenceDetailView } from "./view.js";

export interface CreatedSequence extends Partial<EventTracking> {
  readonly sequence: SequenceDetailView;
  readonly message: string;
}

/**
 * POST /sequences: always a disabled draft, blank (trigger -> completion) or with `steps[]`
 * one after the other. Everything is checked before the one insert, so a refused request
 * stores nothing.
 */
export class CreateSequence {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, input: CreateSequenceCommand): Promise<Result<CreatedSequence>> => {
    const settings = applySettings(DEFAULT_SETTINGS, input);
    if (settings._tag === "Left") return settings;
    const now = this.clock.now();
    const nodes = nodesFromSteps(input.steps ?? [], "steps", this.ids, now, { x: 0, y: 0 });
    if (nodes._tag === "Left") return nodes;
    const graph = linearGraph(nodes.right, this.ids, now);
    const valid = validateGraph(graph);
    if (valid._tag === "Left") return valid;

    const sequence: Sequence = {
      ...DEFAULT_SETTINGS,
      ...settings.right,
      id: this.ids.next("seq"),
      companyId: actor.companyId,
      status: "draft",
      graph,
      graphRevision: 1,
      createdAt: now,
      updatedAt: now,
    };
    const references = await checkReferences(this.sequences, actor.companyId, sequence);
    if (references._tag === "Left") return fail(references.left);
    await this.sequences.insert(sequence);
    const view = toSequenceDetailView(sequence);
    return ok({
      sequence: view,
      message: `Created sequence '${sequence.name}' as a disabled draft with ${view.emailCount} email${view.emailCount === 1 ? "" : "s"}. Enable it (POST /api/v1/sequences/${sequence.id}/enable) to start it.`,
      ...eventTrackingOf(sequence, this.baseUrl),
    });
  };
}
