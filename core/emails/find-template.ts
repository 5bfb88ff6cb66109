import type { TransactionalEmailRepository } from "../transactional/ports.js";
import type { Template } from "./model.js";
import type { TemplateRepository } from "./ports.js";

/**
 * A company's template named by its ID, or by a transactional email's ID or slug (the client's
 * `templateId` on share-link and localization routes): the transactional email's content.
 */
export async function findTemplate(
  templates: TemplateRepository,
  transactional: TransactionalEmailRepository,
  companyId: string,
  reference: string,
): Promise<Template | null> {
  const template = await templates.find(companyId, reference);
  if (template) return template;
  const email = await transactional.findByIdOrSlug(companyId, reference);
  return email ? templates.find(companyId, email.templateId) : null;
}
