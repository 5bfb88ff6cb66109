import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { conflict, invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { toSequenceDetailView, type SequenceDetailView } from "./view.js";

export const CHANGED_MEANWHILE = conflict("The sequence was changed by another request meanwhile: reload it and try again");

/**
 * POST /sequences/{id}/archive and /unarchive. Archiving stops a sequence whatever its state;
 * unarchiving gives back a disabled draft (compat-reference §10).
 */
export class ArchiveSequence {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly clock: Clock,
  ) {}

  archive = (actor: Actor, sequenceId: string) => this.change(actor, sequenceId, (sequence) => ok({ ...sequence, status: "archived" }));

  unarchive = (actor: Actor, sequenceId: string) =>
    this.change(actor, sequenceId, (sequence) =>
      sequence.status === "archived" ? ok({ ...sequence, status: "draft", enrollmentPaused: false }) : fail(invalidState("The sequence is not archived")),
    );

  private async change(actor: Actor, sequenceId: string, next: (sequence: Sequence) => Result<Sequence>): Promise<Result<SequenceDetailView>> {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const changed = next(sequence);
    if (changed._tag === "Left") return changed;
    if (changed.right.status === sequence.status) return ok(toSequenceDetailView(sequence));
    const saved: Sequence = { ...changed.right, updatedAt: this.clock.now() };
    if (!(await this.sequences.update(saved, sequence.graphRevision))) return fail(CHANGED_MEANWHILE);
    return ok(toSequenceDetailView(saved));
  }
}
