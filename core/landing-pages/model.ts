/** A hosted landing page (spec, Landing page): a draft until published; unpublished, it is a draft again. */
export const LANDING_PAGE_STATUSES = ["draft", "published"] as const;
export type LandingPageStatus = (typeof LANDING_PAGE_STATUSES)[number];

/** The templates a page may start from (compat-reference §19). */
export const LANDING_PAGE_TEMPLATES = [
  "from-scratch",
  "waitlist",
  "lead-magnet",
  "launch",
  "demo-request",
  "webinar",
  "newsletter",
  "product-hunt",
  "pricing-offer",
  "agency-lead-gen",
  "feature-announcement",
] as const;
export type LandingPageTemplate = (typeof LANDING_PAGE_TEMPLATES)[number];

/** Where a block sits on the page, top to bottom (compat-reference §19). */
export const BLOCK_SLOTS = ["top", "hero", "form", "body", "footer"] as const;
export type BlockSlot = (typeof BLOCK_SLOTS)[number];

export const BLOCK_TYPES = ["heading", "text", "image", "button", "list", "form", "footer"] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/**
 * One block. Which fields it uses follows its type: heading and text `text`; image `src` and
 * `alt`; button `text` and `url`; list `items`; form `formId` (one of the company's forms, or
 * null until one is chosen); footer `text`.
 */
export interface LandingBlock {
  readonly id: string;
  readonly type: BlockType;
  readonly slot: BlockSlot;
  readonly text?: string;
  readonly src?: string;
  readonly alt?: string;
  readonly url?: string;
  readonly items?: readonly string[];
  readonly formId?: string | null;
}

export interface LandingSeo {
  readonly title?: string;
  readonly description?: string;
}

export interface LandingTheme {
  readonly primaryColor?: string;
  readonly backgroundColor?: string;
  readonly textColor?: string;
  readonly fontFamily?: string;
}

export interface LandingContent {
  readonly version: number;
  readonly template: LandingPageTemplate;
  readonly seo: LandingSeo;
  readonly theme: LandingTheme;
  readonly blocks: readonly LandingBlock[];
}

export const CONTENT_VERSION = 1;

export interface LandingPage {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly slug: string;
  readonly status: LandingPageStatus;
  readonly content: LandingContent;
  readonly viewCount: number;
  readonly conversionCount: number;
  readonly publishedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Why the blocks cannot make a page (compat-reference §19: exactly one footer block, at most one form block), or null. */
export function contentProblem(content: LandingContent): string | null {
  const footers = content.blocks.filter((block) => block.type === "footer");
  if (footers.length !== 1) return "content.blocks must contain exactly one footer block";
  if (content.blocks.filter((block) => block.type === "form").length > 1) return "content.blocks may contain at most one form block";
  if (footers[0]!.slot !== "footer") return "the footer block must be in the footer slot";
  const ids = content.blocks.map((block) => block.id);
  if (new Set(ids).size !== ids.length) return "content.blocks must have distinct ids";
  return null;
}

/** A slug from a name: lower-case letters, digits and single hyphens. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "page";
}
