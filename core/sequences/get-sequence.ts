import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { toSequenceDetailView, type SequenceDetailView } from "./view.js";

/** GET /sequences/{sequenceId}: the sequence with its graph and emails. */
export class GetSequence {
  constructor(private readonly sequences: SequenceRepository) {}

  execute = async (actor: Actor, sequenceId: string): Promise<Result<SequenceDetailView>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    return sequence ? ok(toSequenceDetailView(sequence)) : fail(SEQUENCE_NOT_FOUND);
  };
}
