import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { TRANSACTIONAL_NOT_FOUND } from "./model.js";
import type { TransactionalEmailRepository } from "./ports.js";

export interface DeletedTransactionalEmail {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly emailId: string;
}

/**
 * DELETE /transactional/{idOrSlug} (spec): the transactional email goes and its slug is free
 * again; its content stays as a reusable template, past sends and their stats stay.
 */
export class DeleteTransactionalEmail {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, idOrSlug: string): Promise<Result<DeletedTransactionalEmail>> => {
    const email = await this.emails.findByIdOrSlug(actor.companyId, idOrSlug);
    if (!email || !(await this.emails.softDelete(actor.companyId, email.id, this.clock.now()))) return fail(TRANSACTIONAL_NOT_FOUND);
    return ok({ id: email.id, slug: email.slug, name: email.name, emailId: email.templateId });
  };
}
