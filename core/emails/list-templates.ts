import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { ListTemplatesQuery } from "./commands.js";
import type { TemplateRepository } from "./ports.js";
import { toTemplateView, type TemplateView } from "./view.js";

export const DEFAULT_TEMPLATE_PAGE = 50;

/** Offset pagination as compat-reference §1.4 shows it. */
export interface OffsetPagination {
  readonly limit: number;
  readonly offset: number;
  /** Rows in this page. */
  readonly count: number;
  readonly total: number;
  readonly hasMore: boolean;
}

/** GET /templates: newest first, optionally only those carrying a label. */
export class ListTemplates {
  constructor(private readonly templates: TemplateRepository) {}

  execute = async (actor: Actor, query: ListTemplatesQuery): Promise<Result<{ templates: TemplateView[]; pagination: OffsetPagination }>> => {
    const limit = query.limit ?? DEFAULT_TEMPLATE_PAGE;
    const offset = query.offset ?? 0;
    const page = await this.templates.list(actor.companyId, { label: query.label, limit, offset });
    const count = page.templates.length;
    return ok({
      templates: page.templates.map(toTemplateView),
      pagination: { limit, offset, count, total: page.total, hasMore: offset + count < page.total },
    });
  };
}
