import { notFound } from "../shared/errors.js";

/** Tag colours the product offers (compat-reference, Tags). */
export const TAG_COLORS = [
  "gray",
  "red",
  "orange",
  "amber",
  "yellow",
  "lime",
  "green",
  "emerald",
  "teal",
  "cyan",
  "sky",
  "blue",
  "indigo",
  "violet",
  "purple",
  "fuchsia",
  "pink",
  "rose",
] as const;
export type TagColor = (typeof TAG_COLORS)[number];

export const DEFAULT_TAG_COLOR: TagColor = "gray";
export const MAX_TAG_NAME_LENGTH = 100;
/** Tags one call may put on a contact. */
export const MAX_TAGS_PER_CONTACT_CALL = 100;

export interface Tag {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly color: TagColor;
  readonly isSystem: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * Tag names are normalised so "Pro Customer", "pro_customer" and " PRO-customer " are one tag:
 * trimmed, lower-cased, white space and underscores become `-`, other punctuation is dropped.
 * Returns "" when nothing usable is left.
 */
export function normalizeTagName(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-")
    .replace(/[^\p{L}\p{N}-]+/gu, "")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_TAG_NAME_LENGTH);
}

export const isTagColor = (value: string): value is TagColor => (TAG_COLORS as readonly string[]).includes(value);

/** A tag with the number of contacts carrying it. */
export interface TagWithUsage extends Tag {
  readonly subscriberCount: number;
}

export const TAG_NOT_FOUND = notFound("Tag not found");
