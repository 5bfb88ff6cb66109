import type { CampaignGoalRepository } from "../campaigns/goals.js";
import type { Clock } from "../ports/clock.js";
import type { SequenceRepository } from "../sequences/ports.js";
import { stepNumbers } from "../sequences/view.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { pagePagination, readPage, type PagePagination } from "../shared/page-pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { EmailMetricsQuery, EmailMetricsSort } from "./commands.js";
import { NO_SENDS, toStats, type FunnelCounts, type Stats } from "./model.js";
import { resolveWindow, windowView } from "./period.js";
import type { EmailFunnel, EmailMetricsQueries } from "./ports.js";
import { campaignCredit } from "./campaign-credit.js";
import { addCredit, creditsByStep, NO_CREDIT, type Credit } from "./credit.js";
import type { MetricsWindow } from "./period.js";
import type { SequenceMetricsQueries } from "./sequence-metrics-ports.js";

export const DEFAULT_EMAILS_LIMIT = 50;

export interface EmailMetricsRow {
  readonly emailType: "campaign" | "sequence";
  /** The campaign's ID, or the sequence email step's node ID (as GET /sequences/{id} names it). */
  readonly emailId: string | null;
  /** The campaign's name, or the step's name (else its subject); null once deleted. */
  readonly name: string | null;
  readonly campaignId: string | null;
  readonly sequenceId: string | null;
  readonly sequenceName: string | null;
  readonly automationNodeId: string | null;
  /** The sequence email's number (1 for its first email), null for campaigns and removed steps. */
  readonly step: number | null;
  readonly stats: Stats;
  /** Conversions of the campaign's goals, or those the sequence's goals credit this step with (it was the contact's last email before). */
  readonly conversions: number;
  readonly revenueCents: number;
}

export interface EmailMetrics {
  readonly period: ReturnType<typeof windowView>;
  readonly emails: EmailMetricsRow[];
  readonly totals: Stats & Credit & { readonly emails: number };
  readonly pagination: PagePagination;
  readonly sort: EmailMetricsSort;
  readonly order: "asc" | "desc";
}

export const BOTH_ID_LISTS = badRequest("Provide campaignId or sequenceId, not both");

const FUNNEL_KEYS = Object.keys(NO_SENDS) as Array<keyof FunnelCounts>;

/** The funnel of several emails' sends together (each send is one email's). */
const sum = (funnels: readonly FunnelCounts[]): FunnelCounts =>
  funnels.reduce<FunnelCounts>(
    (total, counts) => Object.fromEntries(FUNNEL_KEYS.map((key) => [key, total[key] + counts[key]])) as Record<keyof FunnelCounts, number>,
    NO_SENDS,
  );

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);

const sortKey = (row: EmailMetricsRow, sort: EmailMetricsSort): number | string | null => {
  if (sort === "name") return row.name?.toLowerCase() ?? null;
  if (sort === "step") return row.step;
  if (sort === "conversions") return row.conversions;
  if (sort === "revenue") return row.revenueCents;
  return row.stats[sort];
};

const byId = (a: EmailMetricsRow, b: EmailMetricsRow): number => (a.emailId ?? "").localeCompare(b.emailId ?? "");

function withoutFunnel(row: EmailMetricsRow & { readonly funnel: EmailFunnel }): EmailMetricsRow {
  const { funnel: _funnel, ...shown } = row;
  return shown;
}

/**
 * GET /metrics/emails (compat-reference §16): one row per campaign and per sequence email step
 * with sends in the window (all time unless a range is given; test sends never count), its
 * funnel by the account metrics' rules (people's opens and clicks), its conversions and revenue
 * (a campaign's goals', the sequence goals' credited to the step), and the totals of every row
 * that matched, before paging. Sorted by `sort` (sent by default), descending unless asked.
 */
export class ListEmailMetrics {
  constructor(
    private readonly queries: EmailMetricsQueries,
    private readonly sequences: SequenceRepository,
    private readonly campaignGoals: CampaignGoalRepository,
    private readonly sequenceQueries: SequenceMetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, query: EmailMetricsQuery): Promise<Result<EmailMetrics>> => {
    const window = resolveWindow(query, this.clock.now(), "all");
    if (window._tag === "Left") return window;
    if (query.campaignId && query.sequenceId) return fail(BOTH_ID_LISTS);
    const sort = query.sort ?? "sent";
    const order = query.order ?? "desc";

    const funnels = await this.queries.funnelsByEmail({
      companyId: actor.companyId,
      window: window.right,
      emailType: query.emailType,
      campaignIds: query.campaignId,
      sequenceIds: query.sequenceId,
    });
    const rows = (await this.rowsOf(actor.companyId, funnels, window.right)).filter((row) => query.step === undefined || row.step === query.step);
    const direction = order === "asc" ? 1 : -1;
    rows.sort((a, b) => {
      const [x, y] = [sortKey(a, sort), sortKey(b, sort)];
      // Rows without the value (a campaign's step, a deleted email's name) go last either way.
      if (x === null || y === null) return x === y ? byId(a, b) : x === null ? 1 : -1;
      const compared = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return compared === 0 ? byId(a, b) : compared * direction;
    });
    const page = readPage(query, DEFAULT_EMAILS_LIMIT);
    return ok({
      period: windowView(window.right),
      emails: rows.slice(page.offset, page.offset + page.limit).map(withoutFunnel),
      totals: {
        ...toStats(sum(rows.map((row) => row.funnel.counts)), { includeMachineEngagement: false, withoutReplies: false }),
        ...rows.reduce<Credit>((total, row) => addCredit(total, row), NO_CREDIT),
        emails: rows.length,
      },
      pagination: pagePagination(page.page, page.limit, rows.length),
      sort,
      order,
    });
  };

  /** Each funnel with its email's names, step and credit (reads per campaign and per sequence named). */
  private async rowsOf(
    companyId: string,
    funnels: readonly EmailFunnel[],
    window: MetricsWindow,
  ): Promise<Array<EmailMetricsRow & { readonly funnel: EmailFunnel }>> {
    const campaignNames = await this.queries.campaignNames(
      companyId,
      funnels.flatMap((funnel) => (funnel.campaignId ? [funnel.campaignId] : [])),
    );
    const sequenceIds = [...new Set(funnels.flatMap((funnel) => (funnel.sequenceId ? [funnel.sequenceId] : [])))];
    const sequences = new Map(
      (await Promise.all(sequenceIds.map((id) => this.sequences.find(companyId, id)))).flatMap((sequence) =>
        sequence ? [[sequence.id, sequence] as const] : [],
      ),
    );
    const steps = new Map([...sequences.values()].map((sequence) => [sequence.id, emailStepNumbers(sequence.graph)]));
    const campaignCredits = new Map<string, Credit>();
    for (const campaignId of new Set(funnels.flatMap((funnel) => (funnel.campaignId ? [funnel.campaignId] : [])))) {
      const goals = await this.campaignGoals.list(companyId, campaignId);
      campaignCredits.set(campaignId, (await campaignCredit(this.queries, goals, { companyId, campaignId, window })).total);
    }
    const stepCredits = new Map<string, ReadonlyMap<string, Credit>>();
    for (const sequenceId of sequenceIds)
      stepCredits.set(sequenceId, creditsByStep(await this.sequenceQueries.conversions(companyId, sequenceId, window)).byStep);
    return funnels.map((funnel) => {
      const stats = toStats(funnel.counts, { includeMachineEngagement: false, withoutReplies: false });
      if (funnel.emailType === "campaign") {
        const campaignId = funnel.campaignId!;
        return {
          funnel,
          emailType: "campaign",
          emailId: campaignId,
          name: campaignNames.get(campaignId) ?? null,
          campaignId,
          sequenceId: null,
          sequenceName: null,
          automationNodeId: null,
          step: null,
          stats,
          ...(campaignCredits.get(campaignId) ?? NO_CREDIT),
        };
      }
      const sequence = sequences.get(funnel.sequenceId!);
      const node = sequence?.graph.nodes.find((candidate) => candidate.id === funnel.automationNodeId);
      const emailSteps = steps.get(funnel.sequenceId!);
      return {
        funnel,
        emailType: "sequence",
        emailId: funnel.automationNodeId,
        name: node ? (text(node.config.name) ?? text(node.config.label) ?? text(node.config.subject)) : null,
        campaignId: null,
        sequenceId: funnel.sequenceId,
        sequenceName: sequence?.name ?? null,
        automationNodeId: funnel.automationNodeId,
        step: funnel.automationNodeId ? (emailSteps?.get(funnel.automationNodeId) ?? null) : null,
        stats,
        ...((funnel.automationNodeId && stepCredits.get(funnel.sequenceId!)?.get(funnel.automationNodeId)) || NO_CREDIT),
      };
    });
  }
}

/** The email steps numbered from 1 in the order a contact meets them (as GET /sequences/{id} numbers `emails[].stepNumber`). */
function emailStepNumbers(graph: Parameters<typeof stepNumbers>[0]): Map<string, number> {
  const numbers = stepNumbers(graph);
  const emails = graph.nodes.filter((node) => node.nodeType === "action_email").sort((a, b) => (numbers.get(a.id) ?? 0) - (numbers.get(b.id) ?? 0));
  return new Map(emails.map((node, index) => [node.id, index + 1]));
}
