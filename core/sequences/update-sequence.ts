import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, invalidState, type DomainError } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { CHANGED_MEANWHILE } from "./archive-sequence.js";
import type { UpdateSequenceCommand } from "./commands.js";
import { advanceEnrollmentsJob } from "./engine-jobs.js";
import { keepsEntryKey } from "./entry-key.js";
import { graphChange } from "./graph-change.js";
import { validateGraph } from "./graph.js";
import { SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { realignmentAfterEdit } from "./realign-enrollments.js";
import { checkReferences } from "./references.js";
import { runProblems } from "./runnable.js";
import { applySettings, type SequenceSettings } from "./settings.js";
import { toSequenceDetailView, type EditedSequenceView } from "./view.js";

/**
 * PUT /sequences/{sequenceId}: settings, and at most one graph form (nodeUpdates with
 * expectedUpdatedAt, insertSteps, graphEdit with expectedRevision, emails/steps,
 * subscriberUpdateSteps, branch). The graph after the edit is
 * validated as a whole, and the write only lands if nobody changed the graph since it was read:
 * a stale token is a 409 and nothing changes. Contacts on nodes the edit removed are moved in the
 * same transaction (realignmentAfterEdit): the answer counts them as migratedRecipientCount
 * (going on at the node that took the removed one's place) and completedRecipientCount (ended).
 */
export class UpdateSequence {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly ids: IdGenerator,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, input: UpdateSequenceCommand): Promise<Result<EditedSequenceView>> => {
    if (input.smsSteps !== undefined) return fail(badRequest("PUT with smsSteps is not supported by this server: it cannot send SMS"));
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    if (sequence.status === "archived") return fail(invalidState("The sequence is archived: unarchive it before editing it"));

    const settings = applySettings(sequence, input);
    if (settings._tag === "Left") return settings;
    const now = this.clock.now();
    const change = graphChange(sequence, input, this.ids, now);
    if (change._tag === "Left") return change;
    if (!settings.right && !change.right)
      return fail(
        badRequest(
          "No supported fields provided: give settings or one graph form (nodeUpdates, insertSteps, graphEdit, emails, steps, subscriberUpdateSteps, branch)",
        ),
      );
    if (change.right) {
      const valid = validateGraph(change.right.graph);
      if (valid._tag === "Left") return valid;
    }
    const live = liveChangeRefusal(sequence, input, settings.right);
    if (live) return fail(live);

    const next: Sequence = {
      ...sequence,
      ...(settings.right ?? {}),
      ...(change.right ? { graph: change.right.graph, graphRevision: sequence.graphRevision + 1 } : {}),
      updatedAt: now,
    };
    if (sequence.status === "active") {
      const problems = runProblems(next);
      if (problems.length > 0) return fail(badRequest(`The sequence is live and could not run after this change: ${problems.join("; ")}`));
    }
    const references = await checkReferences(this.sequences, actor.companyId, next);
    if (references._tag === "Left") return references;
    const relocations = change.right ? realignmentAfterEdit(sequence.graph, change.right.graph) : [];
    if (relocations.length === 0) {
      if (!(await this.sequences.update(next, sequence.graphRevision))) return fail(CHANGED_MEANWHILE);
      return ok({ ...toSequenceDetailView(next), ...(change.right?.report ?? {}) });
    }
    const moved = await this.sequences.updateGraph(next, sequence.graphRevision, relocations, {
      reason: `its step was deleted from the sequence (graph revision ${next.graphRevision})`,
      by: "graph_edit",
      at: now,
      keepEntryKey: keepsEntryKey(next),
    });
    if (!moved) return fail(CHANGED_MEANWHILE);
    // The moved contacts are due now: the engine takes them at once rather than at the next sweep.
    if (moved.migrated > 0 && next.status === "active") await this.jobs.enqueue(advanceEnrollmentsJob(next.companyId));
    return ok({
      ...toSequenceDetailView(next),
      ...(change.right?.report ?? {}),
      migratedRecipientCount: moved.migrated,
      completedRecipientCount: moved.completed,
    });
  };
}

/** Graph forms that add, remove or rewire nodes (content edits and positions are not structural). */
const STRUCTURAL_FORMS = ["insertSteps", "graphEdit", "branch"] as const;

/**
 * On a live sequence, replacing the trigger needs `confirmLiveChange` and a structural graph
 * edit `confirmStructuralChange`: both change what happens to contacts already on their way.
 */
function liveChangeRefusal(sequence: Sequence, input: UpdateSequenceCommand, settings: SequenceSettings | null): DomainError | null {
  if (sequence.status !== "active") return null;
  const triggerChanged =
    settings !== null && (settings.trigger !== sequence.trigger || JSON.stringify(settings.triggerConfig) !== JSON.stringify(sequence.triggerConfig));
  if (triggerChanged && input.confirmLiveChange !== true)
    return badRequest("The sequence is live: changing its trigger needs confirmLiveChange: true", { code: "confirmation_required" });
  const structural = STRUCTURAL_FORMS.find((form) => input[form] !== undefined);
  if (structural && input.confirmStructuralChange !== true)
    return badRequest(`The sequence is live: a structural change (${structural}) needs confirmStructuralChange: true`, { code: "confirmation_required" });
  return null;
}
