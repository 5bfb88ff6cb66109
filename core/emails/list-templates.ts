import type { Actor } from "../shared/actor.js";
import { offsetPagination, readOffsetPage, type OffsetPagination } from "../shared/offset-pagination.js";
import { ok, type Result } from "../shared/result.js";
import type { ListTemplatesQuery } from "./commands.js";
import type { TemplateRepository } from "./ports.js";
import { toTemplateView, type TemplateView } from "./view.js";

/** GET /templates: newest first, optionally only those carrying a label. */
export class ListTemplates {
  constructor(private readonly templates: TemplateRepository) {}

  execute = async (actor: Actor, query: ListTemplatesQuery): Promise<Result<{ templates: TemplateView[]; pagination: OffsetPagination }>> => {
    const { limit, offset } = readOffsetPage(query);
    const page = await this.templates.list(actor.companyId, { label: query.label, limit, offset });
    return ok({
      templates: page.templates.map(toTemplateView),
      pagination: offsetPagination(limit, offset, page.templates.length, page.total),
    });
  };
}
