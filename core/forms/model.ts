import type { DuplicateStrategy } from "../subscribers/model.js";

/** A saved signup form (spec, Saved form): created `published`; no other state exists. */
export const FORM_STATUSES = ["published"] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

export const FORM_DENSITIES = ["compact", "balanced", "spacious"] as const;
export type FormDensity = (typeof FORM_DENSITIES)[number];

export const FORM_COLOR_KEYS = ["accentColor", "backgroundColor", "textColor", "mutedTextColor", "cardColor", "borderColor"] as const;
export type FormColorKey = (typeof FORM_COLOR_KEYS)[number];

/** How the embedded form looks (compat-reference §18). */
export interface FormTheme {
  readonly accentColor: string;
  readonly backgroundColor: string;
  readonly textColor: string;
  readonly mutedTextColor: string;
  readonly cardColor: string;
  readonly borderColor: string;
  /** Pixels, 0-32. */
  readonly borderRadius: number;
  readonly headingFontFamily: string;
  readonly bodyFontFamily: string;
  readonly density: FormDensity;
}

export const MAX_BORDER_RADIUS = 32;

// Contrast of text on card and of white on the accent stays above WCAG AA.
export const DEFAULT_FORM_THEME: FormTheme = {
  accentColor: "#1d4ed8",
  backgroundColor: "#ffffff",
  textColor: "#18181b",
  mutedTextColor: "#52525b",
  cardColor: "#ffffff",
  borderColor: "#d4d4d8",
  borderRadius: 8,
  headingFontFamily: "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif",
  bodyFontFamily: "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif",
  density: "balanced",
};

export const FORM_BLOCK_TYPES = ["heading", "text", "email", "first_name", "last_name", "submit"] as const;
export type FormBlockType = (typeof FORM_BLOCK_TYPES)[number];
/** Blocks that are inputs, and the submission field each one fills. */
export const FIELD_OF_BLOCK = { email: "email", first_name: "firstName", last_name: "lastName" } as const;

/** One piece of the form, top to bottom: a heading or text, an input, or the submit button. */
export interface FormBlock {
  readonly type: FormBlockType;
  /** Heading and text: what is shown; inputs: their label; submit: the button's text. */
  readonly text: string;
  /** Inputs only. */
  readonly placeholder?: string;
  /** Inputs only; the email field is always required. */
  readonly required?: boolean;
}

export const DEFAULT_BUTTON_TEXT = "Subscribe";
export const DEFAULT_SUCCESS_MESSAGE = "Thanks for subscribing!";

export interface SavedForm {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly status: FormStatus;
  readonly listIds: readonly string[];
  readonly tagIds: readonly string[];
  readonly duplicateStrategy: DuplicateStrategy;
  readonly successMessage: string;
  /** Where a submitter is sent instead of seeing the message. */
  readonly redirectUrl: string | null;
  readonly headline: string | null;
  readonly description: string | null;
  readonly buttonText: string;
  readonly showFirstName: boolean;
  readonly showLastName: boolean;
  readonly theme: FormTheme;
  /** Set by the caller; null: the layout follows headline, description, name fields and buttonText. */
  readonly customBlocks: readonly FormBlock[] | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The blocks the form shows: the caller's own, or those its settings describe. */
export function blocksOf(form: SavedForm): readonly FormBlock[] {
  if (form.customBlocks) return form.customBlocks;
  return [
    ...(form.headline ? [{ type: "heading" as const, text: form.headline }] : []),
    ...(form.description ? [{ type: "text" as const, text: form.description }] : []),
    ...(form.showFirstName ? [{ type: "first_name" as const, text: "First name", placeholder: "", required: false }] : []),
    ...(form.showLastName ? [{ type: "last_name" as const, text: "Last name", placeholder: "", required: false }] : []),
    { type: "email", text: "Email", placeholder: "you@example.com", required: true },
    { type: "submit", text: form.buttonText },
  ];
}

/** Why a block list cannot be a form (exactly one email field and one submit button), or null. */
export function blocksProblem(blocks: readonly FormBlock[]): string | null {
  const count = (type: FormBlockType) => blocks.filter((block) => block.type === type).length;
  if (count("email") !== 1) return "blocks must contain exactly one email field";
  if (count("submit") !== 1) return "blocks must contain exactly one submit button";
  if (count("first_name") > 1 || count("last_name") > 1) return "blocks may contain each name field at most once";
  return null;
}
