import type { TemplateRepository } from "../emails/ports.js";
import { bodyFrom } from "../emails/template-content.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateTransactionalCommand } from "./commands.js";
import { TRANSACTIONAL_NOT_FOUND } from "./model.js";
import type { TransactionalEmailRepository } from "./ports.js";
import { contentOf } from "./transactional-content.js";
import { toTransactionalEmailView, type TransactionalEmailView } from "./view.js";

export const NO_FIELDS = badRequest("Provide at least one of name, enabled, subject, previewText, html or blocks");

/** PATCH /transactional/{idOrSlug}: name and enabled on the transactional email, the rest on its content. */
export class UpdateTransactionalEmail {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly templates: TemplateRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, idOrSlug: string, input: UpdateTransactionalCommand): Promise<Result<TransactionalEmailView>> => {
    if (Object.values(input).every((value) => value === undefined)) return fail(NO_FIELDS);
    const body = bodyFrom(input);
    if (body._tag === "Left") return body;
    const email = await this.emails.findByIdOrSlug(actor.companyId, idOrSlug);
    if (!email) return fail(TRANSACTIONAL_NOT_FOUND);
    const now = this.clock.now();
    const content = await contentOf(this.templates, email);
    const changedContent = input.subject !== undefined || input.previewText !== undefined || body.right !== undefined || input.name !== undefined;
    const nextContent = changedContent
      ? {
          ...content,
          name: input.name ?? content.name,
          subject: input.subject ?? content.subject,
          previewText: input.previewText !== undefined ? input.previewText : content.previewText,
          body: body.right ?? content.body,
          updatedAt: now,
        }
      : content;
    if (changedContent) await this.templates.update(nextContent);
    const next = { ...email, name: input.name ?? email.name, enabled: input.enabled ?? email.enabled, updatedAt: now };
    if ((await this.emails.update(next)) === "not_found") return fail(TRANSACTIONAL_NOT_FOUND);
    return ok(toTransactionalEmailView(next, nextContent));
  };
}
