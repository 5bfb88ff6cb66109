import type { Clock } from "../ports/clock.js";
import { SEQUENCE_NOT_FOUND, type Sequence } from "../sequences/model.js";
import type { SequenceRepository } from "../sequences/ports.js";
import { stepNumbers } from "../sequences/view.js";
import { labelOf } from "../sequences/enrollment-view.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { NO_SENDS, toStats, type FunnelCounts, type Stats } from "./model.js";
import { resolveWindow, windowView } from "./period.js";
import type { SequenceMetricsQuery } from "./sequence-metrics-commands.js";
import type { SequenceMetricsQueries } from "./sequence-metrics-ports.js";
import { creditsByStep, NO_CREDIT, type Credit } from "./credit.js";

/** Failed contacts listed per step. */
export const FAILED_SUBSCRIBERS_LIMIT = 20;

/** A sequence's stats: the funnel, and the conversions its goals recorded with their revenue. */
export type SequenceStats = Stats & { readonly conversions: number; readonly revenueCents: number };

export interface SequenceMetrics {
  readonly sequence: { readonly id: string; readonly name: string; readonly status: string };
  readonly period: ReturnType<typeof windowView>;
  readonly stats: SequenceStats;
  readonly steps: ReadonlyArray<{
    readonly step: number;
    readonly nodeId: string;
    readonly subject: string;
    readonly stats: SequenceStats;
    readonly failedCount: number;
    readonly failedSubscribers: ReadonlyArray<{ subscriberId: string; email: string | null; failedAt: string; failedReason: string | null }>;
  }>;
  readonly enrollmentCounts: {
    readonly active: number;
    readonly waiting: number;
    readonly total: number;
    readonly byCurrentNode: ReadonlyArray<{
      currentNodeId: string;
      currentNodeType: string | null;
      currentNodeLabel: string | null;
      currentNodeMissing: boolean;
      active: number;
      waiting: number;
      total: number;
    }>;
  };
  readonly enrollmentSkipped: { readonly count: number; readonly byReason: Readonly<Record<string, number>> };
}

/** Each send is in one node's funnel: the sequence's funnel is their sum, count by count. */
const sum = (funnels: Iterable<FunnelCounts>): FunnelCounts => {
  const total: Record<string, number> = { ...NO_SENDS };
  for (const funnel of funnels) for (const [key, value] of Object.entries(funnel) as Array<[string, number]>) total[key] = (total[key] ?? 0) + value;
  return total as unknown as FunnelCounts;
};

/**
 * GET /metrics/sequences/{id} (compat-reference §16): the funnel of the sequence's sends in the
 * window (all time by default; test sends never count), per email step in the order contacts
 * meet them; the enrollments running now per node; failed enrollments per step; and the steps
 * skipped by reason. Enrollment figures are the state now, whatever the window.
 */
export class GetSequenceMetrics {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly queries: SequenceMetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, query: SequenceMetricsQuery): Promise<Result<SequenceMetrics>> => {
    const window = resolveWindow(query, this.clock.now(), "all");
    if (window._tag === "Left") return window;
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const { companyId } = actor;
    const [funnels, running, failed, skipped, conversions] = await Promise.all([
      this.queries.funnelsByNode(companyId, sequenceId, window.right),
      this.queries.runningByNode(companyId, sequenceId),
      this.queries.failedCounts(companyId, sequenceId),
      this.queries.skippedSteps(companyId, sequenceId),
      this.queries.conversions(companyId, sequenceId, window.right),
    ]);
    const credits = creditsByStep(conversions);
    const statsOf = (counts: FunnelCounts, credit: Credit): SequenceStats => ({
      ...toStats(counts, { includeMachineEngagement: query.includeMachineEngagement ?? false, withoutReplies: false }),
      ...credit,
    });

    const numbers = stepNumbers(sequence.graph);
    const emails = sequence.graph.nodes.filter((node) => node.nodeType === "action_email").sort((a, b) => (numbers.get(a.id) ?? 0) - (numbers.get(b.id) ?? 0));
    const steps = await Promise.all(
      emails.map(async (node, index) => {
        const failedCount = failed.get(node.id) ?? 0;
        const latest = failedCount === 0 ? [] : await this.queries.latestFailed(companyId, sequenceId, node.id, FAILED_SUBSCRIBERS_LIMIT);
        return {
          step: index + 1,
          nodeId: node.id,
          subject: typeof node.config.subject === "string" ? node.config.subject : "",
          stats: statsOf(funnels.get(node.id) ?? NO_SENDS, credits.byStep.get(node.id) ?? NO_CREDIT),
          failedCount,
          failedSubscribers: latest.map((entry) => ({
            subscriberId: entry.subscriberId,
            email: entry.email,
            failedAt: entry.failedAt.toISOString(),
            failedReason: entry.failedReason,
          })),
        };
      }),
    );

    const byReason: Record<string, number> = {};
    for (const entry of skipped) byReason[entry.reason] = (byReason[entry.reason] ?? 0) + entry.count;
    return ok({
      sequence: { id: sequence.id, name: sequence.name, status: sequence.status },
      period: windowView(window.right),
      // Sends of email steps deleted since still count for the sequence.
      stats: statsOf(sum(funnels.values()), credits.total),
      steps,
      enrollmentCounts: enrollmentCounts(sequence, running),
      enrollmentSkipped: { count: Object.values(byReason).reduce((a, b) => a + b, 0), byReason },
    });
  };
}

function enrollmentCounts(sequence: Sequence, running: Awaited<ReturnType<SequenceMetricsQueries["runningByNode"]>>): SequenceMetrics["enrollmentCounts"] {
  const byNode = new Map<string, { active: number; waiting: number }>();
  for (const entry of running) {
    const counts = byNode.get(entry.nodeId) ?? { active: 0, waiting: 0 };
    counts[entry.status] += entry.count;
    byNode.set(entry.nodeId, counts);
  }
  const byCurrentNode = [...byNode.entries()]
    .map(([nodeId, counts]) => {
      const node = sequence.graph.nodes.find((candidate) => candidate.id === nodeId);
      return {
        currentNodeId: nodeId,
        currentNodeType: node?.nodeType ?? null,
        currentNodeLabel: node ? labelOf(node.config) : null,
        currentNodeMissing: node === undefined,
        active: counts.active,
        waiting: counts.waiting,
        total: counts.active + counts.waiting,
      };
    })
    .sort((a, b) => b.total - a.total || a.currentNodeId.localeCompare(b.currentNodeId));
  const active = byCurrentNode.reduce((n, entry) => n + entry.active, 0);
  const waiting = byCurrentNode.reduce((n, entry) => n + entry.waiting, 0);
  return { active, waiting, total: active + waiting, byCurrentNode };
}
