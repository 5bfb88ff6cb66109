import * as t from "io-ts";
import { PERIODS } from "../metrics/period.js";
import { BooleanFromString, boundedText, IsoDate, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { boundedArray } from "../shared/bounded-array.js";
import { DomainName } from "../shared/domain-name.js";
import { withSchema } from "../shared/json-schema.js";
import { BLOCK_SLOTS, BLOCK_TYPES, LANDING_PAGE_TEMPLATES } from "./model.js";

/** Inputs of the landing page routes (compat-reference §19); types and sizes are checked here (422), page rules by the use cases (400). */

export const MAX_LANDING_BLOCKS = 50;
const MAX_TEXT = 5_000;

export const LandingTemplateCodec = oneOf(LANDING_PAGE_TEMPLATES, "LandingPageTemplate");

/** Lower-case letters, digits and single hyphens: the last segment of the page's public URL. */
export const Slug = withSchema(
  new t.Type<string, string, unknown>(
    "Slug",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const slug = u.trim().toLowerCase();
      return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) && slug.length <= 100
        ? t.success(slug)
        : t.failure(u, c, "must be 1-100 lower-case letters, digits and single hyphens (e.g. spring-launch)");
    },
    t.identity,
  ),
  { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$", maxLength: 100 },
);

/** An absolute http(s) address (images, buttons): nothing a browser would run. */
const WebUrl = withSchema(
  new t.Type<string, string, unknown>(
    "WebUrl",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      try {
        const url = new URL(u.trim());
        if ((url.protocol === "http:" || url.protocol === "https:") && u.length <= 2_000) return t.success(url.toString());
      } catch {
        // falls through
      }
      return t.failure(u, c, "must be an absolute HTTP or HTTPS URL");
    },
    t.identity,
  ),
  { type: "string", format: "uri" },
);

const HexColor = withSchema(
  new t.Type<string, string, unknown>(
    "HexColor",
    (u): u is string => typeof u === "string",
    (u, c) =>
      typeof u === "string" && /^#[0-9a-fA-F]{6}$/.test(u.trim())
        ? t.success(u.trim().toLowerCase())
        : t.failure(u, c, "must be a 6-digit hex color such as #1a2b3c"),
    t.identity,
  ),
  { type: "string", pattern: "^#[0-9a-fA-F]{6}$" },
);

/** Font names, commas, quotes, spaces and hyphens only: nothing that could leave the style it goes in. */
const FontFamily = withSchema(
  new t.Type<string, string, unknown>(
    "FontFamily",
    (u): u is string => typeof u === "string",
    (u, c) =>
      typeof u === "string" && u.trim().length > 0 && u.length <= 200 && /^[\p{L}\p{N} ,'"-]+$/u.test(u.trim())
        ? t.success(u.trim())
        : t.failure(u, c, "must be a CSS font-family list (letters, digits, spaces, commas, quotes, hyphens)"),
    t.identity,
  ),
  { type: "string", maxLength: 200 },
);

const Text = (max: number) => boundedText(max);

/** An image's alternative text: empty for a decorative image. */
const AltText = withSchema(
  new t.Type<string, string, unknown>(
    "AltText",
    (u): u is string => typeof u === "string" && u.length <= 500,
    (u, c) => (typeof u === "string" && u.trim().length <= 500 ? t.success(u.trim()) : t.failure(u, c, "must be a string of at most 500 characters")),
    t.identity,
  ),
  { type: "string", maxLength: 500 },
);

export const LandingBlockInput = t.exact(
  t.intersection([
    t.type({ id: required(Text(100)), type: required(oneOf(BLOCK_TYPES, "LandingBlockType")), slot: required(oneOf(BLOCK_SLOTS, "LandingBlockSlot")) }),
    t.partial({
      text: optional(Text(MAX_TEXT)),
      src: optional(WebUrl),
      alt: optional(AltText),
      url: optional(WebUrl),
      items: optional(boundedArray(Text(500), 0, 50)),
      formId: optional(t.union([Text(100), t.null])),
    }),
  ]),
  "LandingBlock",
);

export const LandingContentInput = t.exact(
  t.intersection([
    t.type({ blocks: required(boundedArray(LandingBlockInput, 1, MAX_LANDING_BLOCKS)) }),
    t.partial({
      version: optional(t.number),
      template: optional(LandingTemplateCodec),
      seo: optional(t.exact(t.partial({ title: optional(Text(200)), description: optional(Text(500)) }), "LandingSeo")),
      theme: optional(
        t.exact(
          t.partial({ primaryColor: optional(HexColor), backgroundColor: optional(HexColor), textColor: optional(HexColor), fontFamily: optional(FontFamily) }),
          "LandingTheme",
        ),
      ),
    }),
  ]),
  "LandingContent",
);
export type LandingContentInput = t.TypeOf<typeof LandingContentInput>;

const Name = Text(255);

/** POST /landing-pages: `template` (from-scratch by default) gives the first content, unless `content` is given. */
export const CreateLandingPageCommand = t.exact(
  t.intersection([
    t.type({ name: required(Name) }),
    t.partial({ slug: optional(Slug), template: optional(LandingTemplateCodec), content: optional(LandingContentInput) }),
  ]),
  "CreateLandingPageCommand",
);
export type CreateLandingPageCommand = t.TypeOf<typeof CreateLandingPageCommand>;

/** PUT /landing-pages/{id} (at least one field), and the optional body of publish and unpublish. */
export const UpdateLandingPageCommand = t.exact(
  t.partial({ name: optional(Name), slug: optional(Slug), content: optional(LandingContentInput) }),
  "UpdateLandingPageCommand",
);
export type UpdateLandingPageCommand = t.TypeOf<typeof UpdateLandingPageCommand>;

export const DuplicateLandingPageCommand = t.exact(t.partial({ name: optional(Name), slug: optional(Slug) }), "DuplicateLandingPageCommand");
export type DuplicateLandingPageCommand = t.TypeOf<typeof DuplicateLandingPageCommand>;

export const LandingPagePath = t.type({ landingPageId: TrimmedNonEmpty }, "LandingPagePath");

/** POST/PUT /landing-pages/domain and POST /landing-pages/{id}/domain: the name, and whether to check its DNS at once. */
export const LandingDomainCommand = t.exact(
  t.intersection([t.type({ domain: required(DomainName) }), t.partial({ verify: optional(t.boolean) })]),
  "LandingDomainCommand",
);
export type LandingDomainCommand = t.TypeOf<typeof LandingDomainCommand>;

/** GET /landing-pages/{id}/stats: the metrics' period rules; `includeBots` counts crawlers' views as views. */
export const LandingStatsQuery = t.exact(
  t.partial({
    period: optional(oneOf(PERIODS, "Period")),
    start: optional(IsoDate),
    end: optional(IsoDate),
    includeBots: optional(BooleanFromString),
  }),
  "LandingStatsQuery",
);
export type LandingStatsQuery = t.TypeOf<typeof LandingStatsQuery>;

/** POST /landing-pages/{id}/render: the stored page, or the content given (checked as PUT checks it, nothing saved). */
export const RenderLandingPageCommand = t.exact(t.partial({ content: optional(LandingContentInput) }), "RenderLandingPageCommand");
export type RenderLandingPageCommand = t.TypeOf<typeof RenderLandingPageCommand>;
