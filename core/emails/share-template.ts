import type { Clock } from "../ports/clock.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TransactionalEmailRepository } from "../transactional/ports.js";
import { findTemplate } from "./find-template.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateRepository, TemplateShareLinkRepository } from "./ports.js";
import { shareUrlOf } from "./share-link.js";

export interface SharedTemplate {
  readonly templateId: string;
  readonly shareUrl: string;
  readonly shareToken: string;
  /** False when the template already had a live link: the same URL is returned, not a new one. */
  readonly created: boolean;
}

/**
 * POST /templates/{id}/share-link (id: a template, or a transactional email's ID or slug): the
 * template's public link, created once and then returned as is, so copies shared earlier keep working.
 */
export class ShareTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly transactional: TransactionalEmailRepository,
    private readonly shareLinks: TemplateShareLinkRepository,
    private readonly tokens: RandomTokens,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, reference: string): Promise<Result<SharedTemplate>> => {
    const template = await findTemplate(this.templates, this.transactional, actor.companyId, reference);
    if (!template) return fail(TEMPLATE_NOT_FOUND);
    const fresh = { templateId: template.id, companyId: actor.companyId, token: this.tokens.next(), createdAt: this.clock.now() };
    const created = await this.shareLinks.insert(fresh);
    const link = created ? fresh : await this.shareLinks.find(actor.companyId, template.id);
    if (!link) return fail(TEMPLATE_NOT_FOUND);
    return ok({ templateId: template.id, shareUrl: shareUrlOf(this.baseUrl, link.token), shareToken: link.token, created });
  };
}
