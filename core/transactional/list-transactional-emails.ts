import type { TemplateRepository } from "../emails/ports.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { ListTransactionalQuery } from "./commands.js";
import type { TransactionalEmailRepository } from "./ports.js";
import { contentOf } from "./transactional-content.js";
import { toTransactionalEmailView, type TransactionalEmailView } from "./view.js";

/** GET /transactional: newest first, `search` in name or slug, `status` all|active|disabled. */
export class ListTransactionalEmails {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly templates: TemplateRepository,
  ) {}

  execute = async (actor: Actor, query: ListTransactionalQuery): Promise<Result<TransactionalEmailView[]>> => {
    const status = query.status ?? "all";
    const emails = await this.emails.list(actor.companyId, {
      search: query.search?.trim() || undefined,
      enabled: status === "all" ? undefined : status === "active",
    });
    const views: TransactionalEmailView[] = [];
    for (const email of emails) views.push(toTransactionalEmailView(email, await contentOf(this.templates, email)));
    return ok(views);
  };
}
