import { canonical, type EmailContent } from "./model.js";

/**
 * A template's localized variant (compat-reference §12 localizations): its own subject, preview
 * text and body for one locale. A render asks for a locale and gets the variant of that locale,
 * else of its language (`pt` for `pt-BR`), else the template's default content.
 */
export const LOCALIZATION_SOURCES = ["manual", "translated"] as const;
export type LocalizationSource = (typeof LOCALIZATION_SOURCES)[number];

export interface TemplateLocalization extends EmailContent {
  readonly id: string;
  readonly companyId: string;
  readonly templateId: string;
  /** A normalised BCP 47 tag (`es`, `pt-BR`). */
  readonly locale: string;
  /** `manual`: written through the API; `translated`: by the translation service. */
  readonly source: LocalizationSource;
  /** The fingerprint of the default content it was written from. */
  readonly sourceFingerprint: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** `synced` while the default content is the one the variant was written from; `outdated` once it changed. */
export type SyncStatus = "synced" | "outdated";

/** What a render reports as its locale when the default content was used. */
export const DEFAULT_LOCALE = "default";

/** cyrb53: a fast 53-bit string hash, to tell contents apart (not a security measure). */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A fingerprint of the content a variant translates: subject, preview text and body. */
export function contentFingerprint(content: EmailContent): string {
  const text = canonical({ subject: content.subject, previewText: content.previewText, body: content.body });
  return [cyrb53(text, 1), cyrb53(text, 2)].map((part) => part.toString(16).padStart(14, "0")).join("");
}

export const syncStatusOf = (localization: TemplateLocalization, template: EmailContent): SyncStatus =>
  localization.sourceFingerprint === contentFingerprint(template) ? "synced" : "outdated";

/** The content a render in `locale` uses, and the locale it is in (DEFAULT_LOCALE for the template's own). */
export function localizedContent(
  template: EmailContent,
  localizations: readonly TemplateLocalization[],
  locale: string | undefined,
): { content: EmailContent; locale: string } {
  if (locale !== undefined) {
    const language = locale.split("-")[0]!;
    const variant =
      localizations.find((candidate) => candidate.locale.toLowerCase() === locale.toLowerCase()) ??
      localizations.find((candidate) => candidate.locale.toLowerCase() === language.toLowerCase());
    if (variant) return { content: variant, locale: variant.locale };
  }
  return { content: template, locale: DEFAULT_LOCALE };
}
