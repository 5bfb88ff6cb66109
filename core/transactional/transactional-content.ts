import type { Template } from "../emails/model.js";
import type { TemplateRepository } from "../emails/ports.js";
import type { TransactionalEmail } from "./model.js";

/**
 * The content behind a saved transactional email. It is found even when its template was
 * deleted through /templates since: the transactional email keeps what it sends.
 */
export async function contentOf(templates: TemplateRepository, email: TransactionalEmail): Promise<Template> {
  return present(email, await templates.findIncludingDeleted(email.companyId, email.templateId));
}

/** The content behind each of these saved transactional emails, by email ID, read in one query. */
export async function contentsOf(
  templates: TemplateRepository,
  companyId: string,
  emails: readonly TransactionalEmail[],
): Promise<ReadonlyMap<string, Template>> {
  const found = await templates.findManyIncludingDeleted(
    companyId,
    emails.map((email) => email.templateId),
  );
  const byId = new Map(found.map((content) => [content.id, content]));
  return new Map(emails.map((email) => [email.id, present(email, byId.get(email.templateId))]));
}

/** A transactional email always has its content: a missing one is a broken invariant, not a 404. */
function present(email: TransactionalEmail, content: Template | null | undefined): Template {
  if (!content) throw new Error(`transactional email ${email.id} points at missing template ${email.templateId}`);
  return content;
}
