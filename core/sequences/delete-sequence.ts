import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";

/** DELETE /sequences/{sequenceId}: the sequence and its graph go. */
export class DeleteSequence {
  constructor(private readonly sequences: SequenceRepository) {}

  execute = async (actor: Actor, sequenceId: string): Promise<Result<{ sequenceId: string }>> =>
    (await this.sequences.delete(actor.companyId, sequenceId)) ? ok({ sequenceId }) : fail(SEQUENCE_NOT_FOUND);
}
