import type { EmailBlock } from "./blocks.js";
import { isBlocksBody, type EmailComponent, type Template } from "./model.js";

/** The template record of the API (compat-reference §12). */
export interface TemplateView {
  readonly id: string;
  readonly name: string;
  readonly subject: string;
  readonly previewText: string | null;
  /** The body: `html` for raw HTML content, `blocks` otherwise; the other one is null. */
  readonly html: string | null;
  readonly blocks: readonly EmailBlock[] | null;
  readonly labels: readonly string[];
  /** The product's presets are not offered here: always null. */
  readonly emailPreset: null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const toTemplateView = (template: Template): TemplateView => ({
  id: template.id,
  name: template.name,
  subject: template.subject,
  previewText: template.previewText,
  html: isBlocksBody(template.body) ? null : template.body.html,
  blocks: isBlocksBody(template.body) ? template.body.blocks : null,
  labels: template.labels,
  emailPreset: null,
  createdAt: template.createdAt.toISOString(),
  updatedAt: template.updatedAt.toISOString(),
});

/** The email component record (spec, Email component). */
export interface EmailComponentView {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly description: string | null;
  readonly blocks: readonly EmailBlock[];
  readonly componentType: string;
  readonly defaultSlot: string | null;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const toEmailComponentView = (component: EmailComponent): EmailComponentView => ({
  id: component.id,
  companyId: component.companyId,
  name: component.name,
  description: component.description,
  blocks: component.blocks,
  componentType: component.componentType,
  defaultSlot: component.defaultSlot,
  version: component.version,
  createdAt: component.createdAt.toISOString(),
  updatedAt: component.updatedAt.toISOString(),
});
