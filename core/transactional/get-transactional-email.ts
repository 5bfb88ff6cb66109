import type { TemplateRepository } from "../emails/ports.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { TRANSACTIONAL_NOT_FOUND } from "./model.js";
import type { TransactionalEmailRepository } from "./ports.js";
import { contentOf } from "./transactional-content.js";
import { toTransactionalEmailView, type TransactionalEmailView } from "./view.js";

/** GET /transactional/{idOrSlug}. */
export class GetTransactionalEmail {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly templates: TemplateRepository,
  ) {}

  execute = async (actor: Actor, idOrSlug: string): Promise<Result<TransactionalEmailView>> => {
    const email = await this.emails.findByIdOrSlug(actor.companyId, idOrSlug);
    if (!email) return fail(TRANSACTIONAL_NOT_FOUND);
    return ok(toTransactionalEmailView(email, await contentOf(this.templates, email)));
  };
}
