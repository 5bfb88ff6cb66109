import type { Template } from "../emails/model.js";
import type { TemplateRepository } from "../emails/ports.js";
import { newContentFrom } from "../emails/template-content.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateTransactionalCommand } from "./commands.js";
import { SLUG_PATTERN, slugify, slugTaken, type TransactionalEmail } from "./model.js";
import type { TransactionalEmailRepository } from "./ports.js";
import { toTransactionalEmailView, type TransactionalEmailView } from "./view.js";

export const INVALID_SLUG = badRequest("slug may hold lower-case letters, digits, '-' and '_' only, starting and ending with a letter or digit");

/**
 * POST /transactional: the content becomes a template (reusable after the transactional email
 * is deleted), the transactional email names it by slug. `enabled` defaults to true.
 */
export class CreateTransactionalEmail {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly templates: TemplateRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: CreateTransactionalCommand): Promise<Result<TransactionalEmailView>> => {
    const fields = newContentFrom(input);
    if (fields._tag === "Left") return fields;
    const slug = input.slug ?? slugify(input.name);
    if (!SLUG_PATTERN.test(slug)) return fail(INVALID_SLUG);
    if (await this.emails.findByIdOrSlug(actor.companyId, slug)) return fail(slugTaken(slug));

    const now = this.clock.now();
    const content: Template = {
      id: this.ids.next("tpl"),
      companyId: actor.companyId,
      name: input.name,
      ...fields.right,
      labels: [],
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.templates.insert(content);
    const email: TransactionalEmail = {
      id: this.ids.next("txe"),
      companyId: actor.companyId,
      name: input.name,
      slug,
      templateId: content.id,
      enabled: input.enabled ?? true,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    if ((await this.emails.insert(email)) === "duplicate_slug") {
      // Another request took the slug meanwhile: the content made for this one is not kept.
      await this.templates.softDelete(actor.companyId, content.id, now);
      return fail(slugTaken(slug));
    }
    return ok(toTransactionalEmailView(email, content));
  };
}
