import type { Template } from "../emails/model.js";
import type { TemplateRepository } from "../emails/ports.js";
import type { TransactionalEmail } from "./model.js";

/**
 * The content behind a saved transactional email. It is found even when its template was
 * deleted through /templates since: the transactional email keeps what it sends.
 */
export async function contentOf(templates: TemplateRepository, email: TransactionalEmail): Promise<Template> {
  const content = await templates.findIncludingDeleted(email.companyId, email.templateId);
  if (!content) throw new Error(`transactional email ${email.id} points at missing template ${email.templateId}`);
  return content;
}

/** The content behind each of these saved transactional emails, by email ID, read in one query. */
export async function contentsOf(
  templates: TemplateRepository,
  companyId: string,
  emails: readonly TransactionalEmail[],
): Promise<ReadonlyMap<string, Template>> {
  const found = new Map(
    (
      await templates.findManyIncludingDeleted(
        companyId,
        emails.map((email) => email.templateId),
      )
    ).map((content) => [content.id, content]),
  );
  return new Map(
    emails.map((email) => {
      const content = found.get(email.templateId);
      if (!content) throw new Error(`transactional email ${email.id} points at missing template ${email.templateId}`);
      return [email.id, content];
    }),
  );
}
