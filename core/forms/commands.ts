import * as t from "io-ts";
import { boundedText, Email, integerBetween, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { boundedArray } from "../shared/bounded-array.js";
import { withSchema } from "../shared/json-schema.js";
import { DuplicateStrategyCodec } from "../subscribers/commands.js";
import { FORM_BLOCK_TYPES, FORM_DENSITIES, MAX_BORDER_RADIUS } from "./model.js";

/** Inputs of the form routes (spec, Forms; compat-reference §18). Types and sizes are checked here (422). */

export const MAX_FORM_NAME_LENGTH = 255;
export const MAX_FORM_TEXT_LENGTH = 2_000;
export const MAX_FORM_LISTS = 50;
export const MAX_FORM_TAGS = 50;
export const MAX_FORM_BLOCKS = 20;

/** A 6-digit hex color (`#1a2b3c`), lower-cased. */
const HexColor = withSchema(
  new t.Type<string, string, unknown>(
    "HexColor",
    (u): u is string => typeof u === "string" && /^#[0-9a-f]{6}$/.test(u),
    (u, c) =>
      typeof u === "string" && /^#[0-9a-fA-F]{6}$/.test(u.trim())
        ? t.success(u.trim().toLowerCase())
        : t.failure(u, c, "must be a 6-digit hex color such as #1a2b3c"),
    t.identity,
  ),
  { type: "string", pattern: "^#[0-9a-fA-F]{6}$" },
);

/** A CSS font-family list: names, quotes, commas, spaces and hyphens only, so it cannot break out of the style it goes in. */
const FontFamily = withSchema(
  new t.Type<string, string, unknown>(
    "FontFamily",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const value = u.trim();
      return value.length > 0 && value.length <= 200 && /^[\p{L}\p{N} ,'"-]+$/u.test(value)
        ? t.success(value)
        : t.failure(u, c, "must be a CSS font-family list of at most 200 characters (letters, digits, spaces, commas, quotes, hyphens)");
    },
    t.identity,
  ),
  { type: "string", maxLength: 200 },
);

/** An absolute http(s) URL, kept as given (trimmed). */
const RedirectUrl = withSchema(
  new t.Type<string, string, unknown>(
    "RedirectUrl",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const value = u.trim();
      try {
        const url = new URL(value);
        if ((url.protocol === "http:" || url.protocol === "https:") && value.length <= 2_000) return t.success(url.toString());
      } catch {
        // falls through
      }
      return t.failure(u, c, "must be an absolute HTTP or HTTPS URL");
    },
    t.identity,
  ),
  { type: "string", format: "uri", maxLength: 2_000 },
);

/** Trimmed text; blank or null clears it. */
const ClearableText = withSchema(
  new t.Type<string | null, string | null, unknown>(
    `FormText(0..${MAX_FORM_TEXT_LENGTH})`,
    (u): u is string | null => u === null || typeof u === "string",
    (u, c) => {
      if (u === null) return t.success(null);
      if (typeof u !== "string") return t.failure(u, c, "must be a string or null");
      const value = u.trim();
      return value.length <= MAX_FORM_TEXT_LENGTH ? t.success(value || null) : t.failure(u, c, `must be at most ${MAX_FORM_TEXT_LENGTH} characters`);
    },
    t.identity,
  ),
  { type: ["string", "null"], maxLength: MAX_FORM_TEXT_LENGTH },
);

const FormText = boundedText(MAX_FORM_TEXT_LENGTH);
const ShortText = boundedText(255);

export const FormThemePatch = t.exact(
  t.partial({
    accentColor: optional(HexColor),
    backgroundColor: optional(HexColor),
    textColor: optional(HexColor),
    mutedTextColor: optional(HexColor),
    cardColor: optional(HexColor),
    borderColor: optional(HexColor),
    borderRadius: optional(integerBetween(0, MAX_BORDER_RADIUS)),
    headingFontFamily: optional(FontFamily),
    bodyFontFamily: optional(FontFamily),
    density: optional(oneOf(FORM_DENSITIES, "FormDensity")),
  }),
  "FormThemePatch",
);
export type FormThemePatch = t.TypeOf<typeof FormThemePatch>;

export const FormBlockInput = t.exact(
  t.intersection([
    t.type({ type: required(oneOf(FORM_BLOCK_TYPES, "FormBlockType")), text: required(FormText) }),
    t.partial({ placeholder: optional(boundedText(255)), required: optional(t.boolean) }),
  ]),
  "FormBlock",
);

const Ids = (max: number) => boundedArray(boundedText(255), 0, max);

const settings = {
  tagIds: optional(Ids(MAX_FORM_TAGS)),
  duplicateStrategy: optional(DuplicateStrategyCodec),
  successMessage: optional(ClearableText),
  headline: optional(ClearableText),
  description: optional(ClearableText),
  buttonText: optional(ShortText),
  showFirstName: optional(t.boolean),
  showLastName: optional(t.boolean),
  theme: optional(FormThemePatch),
};

/** POST /forms. */
export const CreateFormCommand = t.exact(
  t.intersection([
    t.type({ name: required(boundedText(MAX_FORM_NAME_LENGTH)), listIds: required(Ids(MAX_FORM_LISTS)) }),
    t.partial({ ...settings, redirectUrl: optional(t.union([RedirectUrl, t.null])) }),
  ]),
  "CreateFormCommand",
);
export type CreateFormCommand = t.TypeOf<typeof CreateFormCommand>;

/** `""` is no redirect: back to the success message. */
const RedirectUrlOrBlank = t.union([RedirectUrl, t.literal(""), t.null]);

/** PATCH /forms/{formId}: any of the fields; `tagIds: []` clears, `theme` is merged, `blocks` replaces the layout. */
export const UpdateFormCommand = t.exact(
  t.partial({
    ...settings,
    name: optional(boundedText(MAX_FORM_NAME_LENGTH)),
    listIds: optional(Ids(MAX_FORM_LISTS)),
    redirectUrl: optional(RedirectUrlOrBlank),
    blocks: optional(boundedArray(FormBlockInput, 1, MAX_FORM_BLOCKS)),
  }),
  "UpdateFormCommand",
);
export type UpdateFormCommand = t.TypeOf<typeof UpdateFormCommand>;

export const FormPath = t.type({ formId: TrimmedNonEmpty }, "FormPath");

/** Text a visitor types in a name field. */
const VisitorName = withSchema(
  new t.Type<string | undefined, string, unknown>(
    "VisitorName",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (u === undefined || u === null) return t.success(undefined);
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const value = u.trim();
      return value.length <= 255 ? t.success(value || undefined) : t.failure(u, c, "must be at most 255 characters");
    },
    (u) => u ?? "",
  ),
  { type: "string", maxLength: 255 },
);

/**
 * A visitor's submission at the form's actionUrl (JSON or form-encoded). Any other field (lists,
 * tags, a redirect) is dropped: the form's stored settings decide. `website` is the honeypot;
 * `landingPageId` is set by a hosted landing page's form, whose conversion the signup is.
 */
export const FormSubmission = t.exact(
  t.intersection([
    t.type({ email: required(Email) }),
    t.partial({ firstName: VisitorName, lastName: VisitorName, website: t.unknown, landingPageId: optional(boundedText(100)) }),
  ]),
  "FormSubmission",
);
export type FormSubmission = t.TypeOf<typeof FormSubmission>;
