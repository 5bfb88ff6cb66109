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
