import type { EmailRenderer } from "../emails/email-renderer.js";
import type { TemplateRepository } from "../emails/ports.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { TRANSACTIONAL_NOT_FOUND } from "./model.js";
import type { TransactionalEmailRepository } from "./ports.js";
import { contentOf } from "./transactional-content.js";
import { toTransactionalEmailView, type TransactionalEmailDetail } from "./view.js";

/** GET /transactional/{idOrSlug}, with the variables a send should supply. */
export class GetTransactionalEmail {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly templates: TemplateRepository,
    private readonly renderer: EmailRenderer,
  ) {}

  execute = async (actor: Actor, idOrSlug: string): Promise<Result<TransactionalEmailDetail>> => {
    const email = await this.emails.findByIdOrSlug(actor.companyId, idOrSlug);
    if (!email) return fail(TRANSACTIONAL_NOT_FOUND);
    const content = await contentOf(this.templates, email);
    return ok({ ...toTransactionalEmailView(email, content), variables: this.renderer.variablesOf(content) });
  };
}
