import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { pagePagination, readPage, type PagePagination } from "../shared/page-pagination.js";
import { ok, type Result } from "../shared/result.js";
import { DEFAULT_EMAIL_SEND_PAGE_SIZE, EMAIL_SEND_RETENTION_DAYS, type ListEmailSendsQuery } from "./commands.js";
import type { EmailSendQueries } from "./email-send-queries.js";
import { statusesMatching } from "./status.js";
import { emailSendSummaryView, type EmailSendSummaryView } from "./view.js";

export interface EmailSendPage {
  readonly retentionDays: number;
  readonly emailSends: EmailSendSummaryView[];
  readonly pagination: PagePagination;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Blank text filters are no filter at all. */
const text = (value: string | undefined): string | undefined => value?.trim() || undefined;

/** The company's email sends of the last `days` days (14 at most), newest first unless asked otherwise. */
export class ListEmailSends {
  constructor(
    private readonly queries: EmailSendQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, query: ListEmailSendsQuery): Promise<Result<EmailSendPage>> => {
    const { page, limit } = readPage(query, DEFAULT_EMAIL_SEND_PAGE_SIZE);
    const days = query.days ?? EMAIL_SEND_RETENTION_DAYS;
    const { emailSends, total } = await this.queries.search(actor.companyId, {
      search: text(query.search),
      subject: text(query.subject),
      recipient: text(query.recipient),
      statuses: query.status ? statusesMatching(query.status) : undefined,
      emailType: query.emailType,
      bounceType: query.bounceType,
      campaignId: text(query.campaignId),
      transactionalEmailId: text(query.transactionalEmailId),
      automationId: text(query.automationId),
      automationNodeId: text(query.automationNodeId),
      held: query.held,
      createdSince: new Date(this.clock.now().getTime() - days * DAY_MS),
      page,
      limit,
      sortField: query.sortField ?? "createdAt",
      sortOrder: query.sortOrder ?? "desc",
    });
    return ok({
      retentionDays: EMAIL_SEND_RETENTION_DAYS,
      emailSends: emailSends.map(emailSendSummaryView),
      pagination: pagePagination(page, limit, total),
    });
  };
}
