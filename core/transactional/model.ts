import { conflict, notFound } from "../shared/errors.js";

/**
 * A saved transactional email (spec, Transactional email): an API slug over reusable content
 * (a template). Deleting it keeps the content as a template and frees the slug.
 */
export interface TransactionalEmail {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly slug: string;
  /** The underlying reusable email content (`emailId` in the API). */
  readonly templateId: string;
  /** False stops sends. */
  readonly enabled: boolean;
  readonly deletedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const MAX_SLUG = 255;

export const TRANSACTIONAL_NOT_FOUND = notFound("Transactional email not found");
export const slugTaken = (slug: string) => conflict(`A transactional email with slug '${slug}' already exists`);
export const sendsDisabled = (slug: string) =>
  conflict(`Transactional email '${slug}' is disabled: enable it (PATCH /api/v1/transactional/${slug} {"enabled": true}) before sending`);

/** A slug from a name: lower-case ASCII letters and digits separated by single hyphens. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, "");
  return slug || "email";
}

/** What a slug given by the caller may be: the same alphabet a generated one uses, plus underscores. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
