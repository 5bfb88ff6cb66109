import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { DuplicateSequenceCommand } from "./commands.js";
import { MAX_SEQUENCE_NAME_LENGTH, SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { toSequenceDetailView, type SequenceDetailView } from "./view.js";

/** POST /sequences/{id}/duplicate: a disabled draft with the same settings and a copy of the graph under new node IDs. */
export class DuplicateSequence {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (
    actor: Actor,
    sequenceId: string,
    input: DuplicateSequenceCommand,
  ): Promise<Result<{ sequence: SequenceDetailView; nodes: SequenceDetailView["nodes"]; edges: SequenceDetailView["edges"] }>> => {
    const original = await this.sequences.find(actor.companyId, sequenceId);
    if (!original) return fail(SEQUENCE_NOT_FOUND);
    const now = this.clock.now();
    const newIds = new Map(original.graph.nodes.map((node) => [node.id, this.ids.next("node")]));
    const copy: Sequence = {
      ...original,
      id: this.ids.next("seq"),
      name: input.name ?? `${original.name} (copy)`.slice(0, MAX_SEQUENCE_NAME_LENGTH),
      status: "draft",
      enrollmentPaused: false,
      graph: {
        nodes: original.graph.nodes.map((node) => ({ ...node, id: newIds.get(node.id)!, updatedAt: now })),
        edges: original.graph.edges.map((edge) => ({ ...edge, sourceNodeId: newIds.get(edge.sourceNodeId)!, targetNodeId: newIds.get(edge.targetNodeId)! })),
      },
      graphRevision: 1,
      createdAt: now,
      updatedAt: now,
    };
    await this.sequences.insert(copy);
    const view = toSequenceDetailView(copy);
    return ok({ sequence: view, nodes: view.nodes, edges: view.edges });
  };
}
