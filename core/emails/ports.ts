import type { EmailTheme } from "../company/email-theme.js";
import type { TemplateLocalization } from "./localization.js";
import type { ComponentType, DefaultSlot, EmailComponent, Template } from "./model.js";
import type { TranslatableText } from "./translatable-texts.js";
import type { TemplateShareLink } from "./share-link.js";
import { token } from "../shared/token.js";

export interface TemplatePage {
  readonly templates: Template[];
  /** Every template matching the filter, across pages. */
  readonly total: number;
}

/** A company's templates; deleted ones are invisible except through `findIncludingDeleted`. */
export interface TemplateRepository {
  /** Newest first. */
  list(companyId: string, filter: { readonly label?: string | undefined; readonly limit: number; readonly offset: number }): Promise<TemplatePage>;
  find(companyId: string, templateId: string): Promise<Template | null>;
  /** For senders whose saved email points at content deleted since. */
  findIncludingDeleted(companyId: string, templateId: string): Promise<Template | null>;
  /** The same for many at once, in one query (those the company does not have are absent). */
  findManyIncludingDeleted(companyId: string, templateIds: readonly string[]): Promise<Template[]>;
  insert(template: Template): Promise<void>;
  /** False when the company has no such (undeleted) template. */
  update(template: Template): Promise<boolean>;
  softDelete(companyId: string, templateId: string, at: Date): Promise<boolean>;
}
export const TemplateRepository = token<TemplateRepository>("lifecycle.TemplateRepository");

/** Templates' public share links; the token alone finds one (the public page has no company). */
export interface TemplateShareLinkRepository {
  find(companyId: string, templateId: string): Promise<TemplateShareLink | null>;
  findByToken(token: string): Promise<TemplateShareLink | null>;
  /** False when the template already has a live link (a concurrent share won). */
  insert(link: TemplateShareLink): Promise<boolean>;
  delete(companyId: string, templateId: string): Promise<boolean>;
}
export const TemplateShareLinkRepository = token<TemplateShareLinkRepository>("lifecycle.TemplateShareLinkRepository");

/** Templates' localized variants, one per template and locale. */
export interface TemplateLocalizationRepository {
  /** By locale. */
  list(companyId: string, templateId: string): Promise<TemplateLocalization[]>;
  /** Inserts, or replaces the variant of that locale (keeping its ID and creation time); returns what is stored. */
  save(localization: TemplateLocalization): Promise<TemplateLocalization>;
}
export const TemplateLocalizationRepository = token<TemplateLocalizationRepository>("lifecycle.TemplateLocalizationRepository");

export type ComponentWrite = "saved" | "duplicate_name" | "not_found";

/** A company's email components. Names are unique per company. */
export interface EmailComponentRepository {
  /** Alphabetical by name. */
  list(companyId: string, filter: { readonly type?: ComponentType | undefined; readonly defaultsOnly?: boolean | undefined }): Promise<EmailComponent[]>;
  find(companyId: string, componentId: string): Promise<EmailComponent | null>;
  findDefault(companyId: string, slot: DefaultSlot): Promise<EmailComponent | null>;
  insert(component: EmailComponent): Promise<ComponentWrite>;
  update(component: EmailComponent): Promise<ComponentWrite>;
  delete(companyId: string, componentId: string): Promise<boolean>;
}
export const EmailComponentRepository = token<EmailComponentRepository>("lifecycle.EmailComponentRepository");

/** What emails take from the company profile. */
export interface EmailBranding {
  readonly companyName: string;
  /** Resolved: preset values under the company's overrides. */
  readonly theme: EmailTheme;
}

export interface EmailBrandingSource {
  /** Null when the company does not exist. */
  find(companyId: string): Promise<EmailBranding | null>;
}
export const EmailBrandingSource = token<EmailBrandingSource>("lifecycle.EmailBrandingSource");

/**
 * Machine translation of an email's texts (a LibreTranslate-compatible service named by
 * TRANSLATION_URL). `configured` is false when the server has none: nothing can be translated.
 */
export interface Translator {
  readonly configured: boolean;
  /** The texts translated into `locale`, in order; HTML texts keep their markup. Rejects with TranslationError. */
  translate(texts: readonly TranslatableText[], locale: string): Promise<string[]>;
}
export const Translator = token<Translator>("lifecycle.Translator");

/** A translation that failed: `permanent` when asking again cannot help (an unsupported locale, a refused key). */
export class TranslationError extends Error {
  override readonly name = "TranslationError";
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}
