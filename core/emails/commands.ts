import * as t from "io-ts";
import { BooleanFromString, boundedText, Email, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { offsetPageFields } from "../shared/offset-pagination.js";
import { CustomAttributes } from "../subscribers/commands.js";
import { arrayOf, EmailBlocks } from "./blocks.js";
import { COMPONENT_TYPES } from "./model.js";

/**
 * Inputs of the template, email-component and render routes. Types, enumerations and block
 * shapes are checked here (422, with the path of the offending field); rules across fields
 * (one body source, at least one block, no AI prompt) are the use cases' (400).
 */

export const MAX_SUBJECT = 998;
export const MAX_HTML = 500_000;

/** Text that may be null; blank counts as null (it clears). */
export const nullableText = (max: number) =>
  withSchema(
    new t.Type<string | null, string | null, unknown>(
      `NullableText(..${max})`,
      (u): u is string | null => u === null || (typeof u === "string" && u.length <= max),
      (u, c) => {
        if (u === null) return t.success(null);
        if (typeof u !== "string") return t.failure(u, c, "must be a string or null");
        const trimmed = u.trim();
        if (trimmed.length > max) return t.failure(u, c, `must be at most ${max} characters`);
        return t.success(trimmed.length === 0 ? null : trimmed);
      },
      t.identity,
    ),
    { type: ["string", "null"], maxLength: max },
  );

/** The fields of email content, shared by every kind of email that has some (templates, transactional emails). */
export const ContentName = boundedText(255);
export const ContentSubject = boundedText(MAX_SUBJECT);
/** Null or blank clears it. */
export const ContentPreviewText = nullableText(MAX_SUBJECT);
export const ContentHtml = boundedText(MAX_HTML);
const Name = ContentName;
const Subject = ContentSubject;
const PreviewText = ContentPreviewText;
const Html = ContentHtml;
const Labels = arrayOf(boundedText(100), 0, 50, "labels");
/** Accepted only to answer it clearly: AI generation is not available on this server. */
const Prompt = t.unknown;

export const TemplatePath = t.type({ templateId: TrimmedNonEmpty }, "TemplatePath");

const LOCALE = /^([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|[0-9]{3}))?$/i;

/** A BCP 47 language tag (language, optional script and region), normalised: `es`, `pt-BR`, `zh-Hant-TW`, `es-419`. */
export const Locale = withSchema(
  new t.Type<string, string, unknown>(
    "Locale",
    (u): u is string => typeof u === "string" && LOCALE.test(u),
    (u, c) => {
      const match = typeof u === "string" ? LOCALE.exec(u.trim()) : null;
      if (!match) return t.failure(u, c, "must be a locale such as es or pt-BR");
      const [, language, script, region] = match;
      const parts = [language!.toLowerCase(), script && script[0]!.toUpperCase() + script.slice(1).toLowerCase(), region?.toUpperCase()];
      return t.success(parts.filter(Boolean).join("-"));
    },
    t.identity,
  ),
  { type: "string", pattern: LOCALE.source, maxLength: 35 },
);

/**
 * A send's `locale`: a locale, or `default` for the default content even when the contact has a
 * `locale` attribute (kept as `default`, unlike a render's).
 */
export const SendLocale = withSchema(
  new t.Type<string, string, unknown>(
    "SendLocale",
    (u): u is string => u === "default" || Locale.is(u),
    (u, c) => (u === "default" ? t.success(u) : Locale.validate(u, c)),
    t.identity,
  ),
  { type: "string", description: "A locale such as es or pt-BR, or default" },
);

/** A render's `locale`: a locale, or `default` (what a render answers when it used the default content). */
const RenderLocale = withSchema(
  new t.Type<string | undefined, string | undefined, unknown>(
    "RenderLocale",
    (u): u is string | undefined => u === undefined || Locale.is(u),
    (u, c) => (u === "default" ? t.success(undefined) : Locale.validate(u, c)),
    t.identity,
  ),
  { type: "string", description: "A locale such as es or pt-BR, or default" },
);

export const LocalizationPath = t.type({ templateId: TrimmedNonEmpty, locale: Locale }, "LocalizationPath");

/** POST /templates/{templateId}/localizations/sync: the locales to translate (omitted: every outdated variant). */
export const SyncTemplateLocalizationsCommand = t.exact(
  t.partial({ locales: optional(arrayOf(Locale, 1, 50, "locales")) }),
  "SyncTemplateLocalizationsCommand",
);
export type SyncTemplateLocalizationsCommand = t.TypeOf<typeof SyncTemplateLocalizationsCommand>;

/** PUT /templates/{templateId}/localizations/{locale}: a subject and exactly one of html and blocks. */
export const SetTemplateLocalizationCommand = t.exact(
  t.intersection([
    t.type({ subject: required(Subject) }),
    t.partial({ previewText: optional(PreviewText), html: optional(Html), blocks: optional(EmailBlocks) }),
  ]),
  "SetTemplateLocalizationCommand",
);
export type SetTemplateLocalizationCommand = t.TypeOf<typeof SetTemplateLocalizationCommand>;

/** GET /templates. */
export const ListTemplatesQuery = t.exact(t.partial({ label: optional(TrimmedNonEmpty), ...offsetPageFields }), "ListTemplatesQuery");
export type ListTemplatesQuery = t.TypeOf<typeof ListTemplatesQuery>;

/** POST /templates: name and subject, exactly one of html and blocks. */
export const CreateTemplateCommand = t.exact(
  t.intersection([
    t.type({ name: required(Name) }),
    t.partial({
      subject: optional(Subject),
      previewText: optional(PreviewText),
      html: optional(Html),
      blocks: optional(EmailBlocks),
      labels: optional(Labels),
      prompt: Prompt,
    }),
  ]),
  "CreateTemplateCommand",
);
export type CreateTemplateCommand = t.TypeOf<typeof CreateTemplateCommand>;

/** PUT /templates/{templateId}: at least one field; previewText null clears; html or blocks replaces the body. */
export const UpdateTemplateCommand = t.exact(
  t.partial({
    name: optional(Name),
    subject: optional(Subject),
    previewText: optional(PreviewText),
    html: optional(Html),
    blocks: optional(EmailBlocks),
    labels: optional(Labels),
    prompt: Prompt,
  }),
  "UpdateTemplateCommand",
);
export type UpdateTemplateCommand = t.TypeOf<typeof UpdateTemplateCommand>;

const ComponentTypeCodec = oneOf(COMPONENT_TYPES, "ComponentType");
const Description = nullableText(1000);

export const ComponentPath = t.type({ componentId: TrimmedNonEmpty }, "ComponentPath");
export const SlotPath = t.type({ slot: TrimmedNonEmpty }, "SlotPath");

/** GET /email-components. */
export const ListEmailComponentsQuery = t.exact(
  t.partial({ type: optional(ComponentTypeCodec), defaultsOnly: optional(BooleanFromString) }),
  "ListEmailComponentsQuery",
);
export type ListEmailComponentsQuery = t.TypeOf<typeof ListEmailComponentsQuery>;

/** POST /email-components. */
export const CreateEmailComponentCommand = t.exact(
  t.intersection([
    t.type({ name: required(Name), blocks: required(EmailBlocks) }),
    t.partial({ description: optional(Description), componentType: optional(ComponentTypeCodec) }),
  ]),
  "CreateEmailComponentCommand",
);
export type CreateEmailComponentCommand = t.TypeOf<typeof CreateEmailComponentCommand>;

/** PATCH /email-components/{componentId}: omitted fields are kept. */
export const UpdateEmailComponentCommand = t.exact(
  t.partial({ name: optional(Name), description: optional(Description), blocks: optional(EmailBlocks), componentType: optional(ComponentTypeCodec) }),
  "UpdateEmailComponentCommand",
);
export type UpdateEmailComponentCommand = t.TypeOf<typeof UpdateEmailComponentCommand>;

/** PUT /email-components/defaults/{slot}. */
export const SetDefaultComponentCommand = t.exact(
  t.intersection([t.type({ blocks: required(EmailBlocks) }), t.partial({ name: optional(Name), description: optional(Description) })]),
  "SetDefaultComponentCommand",
);
export type SetDefaultComponentCommand = t.TypeOf<typeof SetDefaultComponentCommand>;

/** A contact given inline for a preview (nothing is stored). */
export const InlineSubscriber = t.exact(
  t.intersection([
    t.type({ email: required(Email) }),
    t.partial({
      firstName: optional(t.union([t.string, t.null])),
      lastName: optional(t.union([t.string, t.null])),
      customAttributes: optional(CustomAttributes),
    }),
  ]),
  "InlineSubscriber",
);

/** Whose values fill a preview's merge tags: a stored contact or an inline one (not both), plus the caller's variables. */
const previewMergeProps = {
  subscriberId: optional(TrimmedNonEmpty),
  subscriber: optional(InlineSubscriber),
  variables: optional(CustomAttributes),
};

/** POST /email-components/defaults/{slot}/preview: the PUT body, and what to show the footer under. */
export const PreviewDefaultComponentCommand = t.exact(
  t.intersection([
    t.type({ blocks: required(EmailBlocks) }),
    t.partial({ name: optional(Name), description: optional(Description), templateId: optional(TrimmedNonEmpty), ...previewMergeProps }),
  ]),
  "PreviewDefaultComponentCommand",
);
export type PreviewDefaultComponentCommand = t.TypeOf<typeof PreviewDefaultComponentCommand>;

/** POST /templates/{templateId}/render: a preview for a stored contact or an inline one. */
export const RenderPreviewCommand = t.exact(
  t.partial({
    ...previewMergeProps,
    locale: optional(RenderLocale),
    variantId: optional(t.string),
    tracking: optional(t.boolean),
  }),
  "RenderPreviewCommand",
);
export type RenderPreviewCommand = t.TypeOf<typeof RenderPreviewCommand>;
