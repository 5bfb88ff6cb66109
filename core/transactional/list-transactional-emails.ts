import type { TemplateRepository } from "../emails/ports.js";
import { NO_SENDS, toStats, type Stats } from "../metrics/model.js";
import { ALL_TIME } from "../metrics/period.js";
import type { MetricsQueries } from "../metrics/ports.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { ListTransactionalQuery } from "./commands.js";
import type { TransactionalEmailRepository } from "./ports.js";
import { contentsOf } from "./transactional-content.js";
import { toTransactionalEmailView, type TransactionalEmailListItem } from "./view.js";

type Sort = NonNullable<ListTransactionalQuery["sort"]>;

/** What each sort compares (`date` is the creation order the repository gives). */
const SORT_KEYS: Record<Exclude<Sort, "date">, (stats: Stats) => number> = {
  sends: (stats) => stats.sent,
  opens: (stats) => stats.opened,
  "open-rate": (stats) => stats.openRate,
  clicks: (stats) => stats.clicked,
  ctr: (stats) => stats.clickRate,
};

/**
 * GET /transactional: `search` in name or slug, `status` all|active|disabled, each with the
 * all-time stats of its sends (machine engagement excluded unless includeMachineEngagement),
 * sorted by date (default), sends, opens, open-rate, clicks or ctr; `order` desc by default.
 * The emails, their contents and the stats of them all are three queries, however many emails.
 */
export class ListTransactionalEmails {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly templates: TemplateRepository,
    private readonly metrics: MetricsQueries,
  ) {}

  execute = async (actor: Actor, query: ListTransactionalQuery): Promise<Result<TransactionalEmailListItem[]>> => {
    const { companyId } = actor;
    const status = query.status ?? "all";
    const emails = await this.emails.list(companyId, {
      search: query.search?.trim() || undefined,
      enabled: status === "all" ? undefined : status === "active",
    });
    const ids = emails.map((email) => email.id);
    const [contents, funnels] = await Promise.all([
      contentsOf(this.templates, companyId, emails),
      this.metrics.funnelsByTransactional({ companyId, window: ALL_TIME }, ids),
    ]);
    const statsOptions = { includeMachineEngagement: query.includeMachineEngagement ?? false, withoutReplies: false };
    const items: TransactionalEmailListItem[] = emails.map((email) => ({
      ...toTransactionalEmailView(email, contents.get(email.id)!),
      stats: toStats(funnels.get(email.id) ?? NO_SENDS, statsOptions),
    }));
    const sort = query.sort ?? "date";
    const direction = query.order === "asc" ? 1 : -1;
    // The repository gives newest first; a stable sort keeps that order among equals.
    if (sort === "date") return ok(direction === -1 ? items : items.reverse());
    const key = SORT_KEYS[sort];
    return ok(items.sort((a, b) => direction * (key(a.stats) - key(b.stats))));
  };
}
