import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { normalizeTagName } from "../tags/model.js";
import { advanceEnrollmentsJob } from "./engine-jobs.js";
import { RUNNING_STATUSES } from "./enrollment.js";
import { DEFAULT_MOVE_LIMIT, type MoveEnrollmentsCommand } from "./enrollment-commands.js";
import type { EnrollmentRepository, EnrollmentSort, EnrollmentWithContact } from "./enrollment-ports.js";
import { toEnrollmentView, type EnrollmentView } from "./enrollment-view.js";
import { keepsEntryKey } from "./entry-key.js";
import { exitsOf, outgoing } from "./graph.js";
import { SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { targetNodeProblem } from "./target-node.js";

/** Enrollments shown in a move answer, at most. */
const SHOWN = 50;
/** The window of `dailyLimit`: the last 24 hours. */
const DAY_MS = 24 * 60 * 60 * 1000;

export interface MoveAnswer {
  readonly sequenceId: string;
  readonly dryRun: boolean;
  readonly fromNodeId: string;
  readonly targetNodeId: string;
  readonly sort: EnrollmentSort;
  readonly requestedLimit: number;
  readonly effectiveLimit: number;
  readonly matchedCount: number;
  readonly movedCount: number;
  readonly remainingCount: number;
  readonly skippedCount: number;
  readonly dailyLimit: number | null;
  readonly movedInWindow: number;
  readonly dailyRemaining: number | null;
  readonly enqueuedCount: number;
  readonly enqueueErrors: string[];
  readonly tagResult: { readonly tags: string[]; readonly taggedCount: number } | null;
  readonly enrollments: EnrollmentView[];
  readonly hasMore: boolean;
}

/**
 * POST /sequences/{id}/enrollments/move: running enrollments (active or waiting) at `fromNodeId`
 * go on at once at `targetNodeId` (by default the node after `fromNodeId`), at most `limit` per
 * request in `sort` order, only those of `subscriberIds` when given. A dry run unless `dryRun:
 * false`: it says what would move and changes nothing. `dailyLimit` caps the sequence's moves
 * through this endpoint over the last 24 hours. `tags` are added to the contacts moved. A moved
 * enrollment starts its new node afresh (a delay or a wait begins again) and shows where it came
 * from (`movedFromNodeId`, `movedAt`, `moveReason`).
 */
export class MoveEnrollments {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly enrollments: EnrollmentRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, input: MoveEnrollmentsCommand): Promise<Result<MoveAnswer>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    if (sequence.status === "archived") return fail(invalidState("The sequence is archived: unarchive it before moving its contacts"));
    const target = input.targetNodeId !== undefined ? ok(input.targetNodeId) : nodeAfter(sequence, input.fromNodeId);
    if (target._tag === "Left") return target;
    const targetNodeId = target.right;
    const problem = targetNodeProblem(sequence, targetNodeId);
    if (problem) return fail(problem);
    if (targetNodeId === input.fromNodeId) return fail(badRequest("targetNodeId: contacts are moved to another node than fromNodeId"));
    const tags = input.tags ? [...new Set(input.tags.map(normalizeTagName))] : null;
    if (tags?.includes("")) return fail(badRequest("tags: a tag name needs letters or digits"));

    const dryRun = input.dryRun ?? true;
    const sort = input.sort ?? "wait_until_asc";
    const requestedLimit = input.limit ?? DEFAULT_MOVE_LIMIT;
    const now = this.clock.now();
    const movedBefore = await this.enrollments.movedSince(actor.companyId, sequenceId, new Date(now.getTime() - DAY_MS));
    const dailyLimit = input.dailyLimit ?? null;
    const effectiveLimit = dailyLimit === null ? requestedLimit : Math.min(requestedLimit, Math.max(0, dailyLimit - movedBefore));

    const matched = await this.enrollments.list(actor.companyId, sequenceId, {
      statuses: [...RUNNING_STATUSES],
      currentNodeId: input.fromNodeId,
      subscriberIds: input.subscriberIds ? [...new Set(input.subscriberIds)] : undefined,
      sort,
      // The count is all that is needed when the day's moves are used up.
      limit: Math.max(1, effectiveLimit),
      offset: 0,
    });
    const selected = matched.enrollments.slice(0, effectiveLimit);
    const base = { sequenceId: sequence.id, dryRun, fromNodeId: input.fromNodeId, targetNodeId, sort, requestedLimit, effectiveLimit, dailyLimit };
    if (dryRun)
      return ok({
        ...base,
        matchedCount: matched.total,
        movedCount: 0,
        remainingCount: matched.total,
        skippedCount: 0,
        movedInWindow: movedBefore,
        dailyRemaining: dailyLimit === null ? null : Math.max(0, dailyLimit - movedBefore),
        enqueuedCount: 0,
        enqueueErrors: [],
        tagResult: null,
        enrollments: selected.slice(0, SHOWN).map((enrollment) => toEnrollmentView(sequence, enrollment)),
        hasMore: matched.total > selected.length,
      });

    const move = { fromNodeId: input.fromNodeId, at: now, reason: input.reason ?? "moved through the API", by: "api" as const };
    const moved = await this.enrollments.move(
      actor.companyId,
      sequenceId,
      { fromNodeIds: [input.fromNodeId], toNodeId: targetNodeId, completes: false },
      { reason: move.reason, by: "api", at: now, keepEntryKey: keepsEntryKey(sequence) },
      selected.map((enrollment) => enrollment.id),
    );
    const tagged = tags
      ? await this.tag(
          actor.companyId,
          moved.map((enrollment) => enrollment.subscriberId),
          tags,
        )
      : 0;
    const enqueued = await this.wake(sequence, moved.length);
    const movedIds = new Set(moved.map((enrollment) => enrollment.id));
    const movedInWindow = movedBefore + moved.length;
    const shown = selected
      .filter((enrollment) => movedIds.has(enrollment.id))
      .slice(0, SHOWN)
      .map((enrollment): EnrollmentWithContact => ({
        ...enrollment,
        status: "active",
        currentNodeId: targetNodeId,
        dueAt: now,
        waitUntil: null,
        updatedAt: now,
        stepCount: enrollment.stepCount + 1,
        move,
      }));
    return ok({
      ...base,
      matchedCount: matched.total,
      movedCount: moved.length,
      remainingCount: matched.total - moved.length,
      skippedCount: selected.length - moved.length,
      movedInWindow,
      dailyRemaining: dailyLimit === null ? null : Math.max(0, dailyLimit - movedInWindow),
      ...enqueued,
      tagResult: tags ? { tags, taggedCount: tagged } : null,
      enrollments: shown.map((enrollment) => toEnrollmentView(sequence, enrollment)),
      hasMore: matched.total - moved.length > 0,
    });
  };

  /** Adds the tags to each moved contact still there; how many were tagged. */
  private async tag(companyId: string, subscriberIds: readonly string[], tags: readonly string[]): Promise<number> {
    let tagged = 0;
    for (const id of new Set(subscriberIds)) {
      const contact = await this.subscribers.findById(companyId, id);
      if (!contact) continue;
      await this.subscribers.update(contact, { addTags: tags });
      tagged += 1;
    }
    return tagged;
  }

  /** Hands the moved enrollments to the engine at once (a live sequence); the minute's sweep would find them anyway. */
  private async wake(sequence: Sequence, moved: number): Promise<{ enqueuedCount: number; enqueueErrors: string[] }> {
    if (moved === 0 || sequence.status !== "active") return { enqueuedCount: 0, enqueueErrors: [] };
    try {
      await this.jobs.enqueue(advanceEnrollmentsJob(sequence.companyId));
      return { enqueuedCount: moved, enqueueErrors: [] };
    } catch (error) {
      return {
        enqueuedCount: 0,
        enqueueErrors: [`the engine was not woken (${error instanceof Error ? error.message : String(error)}): the next sweep, within a minute, takes them`],
      };
    }
  }
}

/** The node after `fromNodeId` when it has one way out: where its contacts go by default. */
function nodeAfter(sequence: Sequence, fromNodeId: string): Result<string> {
  const from = sequence.graph.nodes.find((node) => node.id === fromNodeId);
  if (!from) return fail(badRequest(`targetNodeId is required: node ${fromNodeId} is no longer in the sequence, so it has no next step`));
  const edges = outgoing(sequence.graph, from.id);
  if (exitsOf(from).length !== 1 || edges.length !== 1)
    return fail(badRequest(`targetNodeId is required: node ${fromNodeId} (${from.nodeType}) has several ways out`));
  return ok(edges[0]!.targetNodeId);
}
