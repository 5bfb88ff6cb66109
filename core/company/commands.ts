import * as t from "io-ts";
import { Email, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { headerText } from "../shared/header-text.js";
import { DomainName } from "../shared/domain-name.js";
import { withSchema } from "../shared/json-schema.js";
import { CompanyName } from "../tenancy/commands.js";
import { THEME_COLOR_KEYS, THEME_LAYOUT_RANGES, THEME_PRESETS, THEME_TYPOGRAPHY_RANGES, type ThemePreset } from "./email-theme.js";
import { REPLY_TRACKING_DOMAIN_MODES, type ReplyTrackingDomainMode } from "./model.js";

/**
 * Inputs of the company profile, profile and sending-domain routes. Types and enumerations are
 * checked here (422); colors are checked by the use case, since the spec answers a bad hex 400.
 */

export const MAX_PROFILE_TEXT_LENGTH = 10_000;
export const MAX_VALUE_PROPS = 50;

/** Trimmed free text; blank or null clears it. */
const ClearableText = withSchema(
  new t.Type<string | null, string | null, unknown>(
    `ClearableText(0..${MAX_PROFILE_TEXT_LENGTH})`,
    (u): u is string | null => u === null || typeof u === "string",
    (u, c) => {
      if (u === null) return t.success(null);
      if (typeof u !== "string") return t.failure(u, c, "must be a string or null");
      const trimmed = u.trim();
      if (trimmed.length > MAX_PROFILE_TEXT_LENGTH) return t.failure(u, c, `must be at most ${MAX_PROFILE_TEXT_LENGTH} characters`);
      return t.success(trimmed || null);
    },
    t.identity,
  ),
  { type: ["string", "null"], maxLength: MAX_PROFILE_TEXT_LENGTH },
);

/** A display name: it becomes part of the From or Reply-To header. */
export const DisplayName = headerText(255);

const FiniteNumber = withSchema(
  new t.Type<number, number, unknown>(
    "FiniteNumber",
    (u): u is number => typeof u === "number" && Number.isFinite(u),
    (u, c) => (typeof u === "number" && Number.isFinite(u) ? t.success(u) : t.failure(u, c, "must be a number")),
    t.identity,
  ),
  { type: "number" },
);

/** Every key optional; null removes the company's override of that key. */
function partialOf<K extends string, C extends t.Mixed>(keys: readonly K[], codec: C, name: string) {
  const props = Object.fromEntries(keys.map((key) => [key, optional(t.union([codec, t.null]))])) as Record<K, t.UnionC<[t.UnionC<[C, t.NullC]>, t.UndefinedC]>>;
  return t.exact(t.partial(props), name);
}

export const ThemePresetCodec = oneOf<ThemePreset>(THEME_PRESETS, "ThemePreset");

/** A partial theme: merged into the stored one, numbers clamped to their ranges. */
export const EmailThemePatch = t.exact(
  t.partial({
    presetId: optional(t.union([ThemePresetCodec, t.null])),
    colors: optional(partialOf(THEME_COLOR_KEYS, t.string, "ThemeColors")),
    typography: optional(partialOf(Object.keys(THEME_TYPOGRAPHY_RANGES) as Array<keyof typeof THEME_TYPOGRAPHY_RANGES>, FiniteNumber, "ThemeTypography")),
    layout: optional(partialOf(Object.keys(THEME_LAYOUT_RANGES) as Array<keyof typeof THEME_LAYOUT_RANGES>, FiniteNumber, "ThemeLayout")),
  }),
  "EmailThemePatch",
);
export type EmailThemePatch = t.TypeOf<typeof EmailThemePatch>;

const ValueProps = withSchema(
  new t.Type<unknown[], unknown[], unknown>(
    `ValueProps(0..${MAX_VALUE_PROPS})`,
    (u): u is unknown[] => Array.isArray(u) && u.length <= MAX_VALUE_PROPS,
    (u, c) => {
      if (!Array.isArray(u)) return t.failure(u, c, "must be an array");
      return u.length <= MAX_VALUE_PROPS ? t.success(u) : t.failure(u, c, `must hold at most ${MAX_VALUE_PROPS} items`);
    },
    t.identity,
  ),
  { type: "array", maxItems: MAX_VALUE_PROPS, description: "Usually objects with title and description" },
);

export const ReplyTrackingDomainModeCodec = oneOf<ReplyTrackingDomainMode>(REPLY_TRACKING_DOMAIN_MODES, "ReplyTrackingDomainMode");

/** PATCH /companies/{companyId} (spec, Company and identity). */
export const UpdateCompanyProfileCommand = t.exact(
  t.partial({
    name: optional(CompanyName),
    primaryColor: optional(t.union([t.string, t.null])),
    emailTheme: optional(t.union([EmailThemePatch, t.null])),
    brandColors: optional(t.union([t.record(t.string, t.unknown), t.null])),
    description: optional(ClearableText),
    companyContext: optional(ClearableText),
    toneVoice: optional(ClearableText),
    valueProps: optional(t.union([ValueProps, t.null])),
    senderProfileId: optional(TrimmedNonEmpty),
    fromEmail: optional(Email),
    fromName: optional(DisplayName),
    replyProfileId: optional(TrimmedNonEmpty),
    replyTo: optional(Email),
    replyToName: optional(DisplayName),
    replyTrackingEnabled: optional(t.boolean),
    replyTrackingDomainMode: optional(ReplyTrackingDomainModeCodec),
    forwardReplies: optional(t.boolean),
  }),
  "UpdateCompanyProfileCommand",
);
export type UpdateCompanyProfileCommand = t.TypeOf<typeof UpdateCompanyProfileCommand>;

export const CompanyPath = t.type({ companyId: TrimmedNonEmpty }, "CompanyPath");
export const ProfilePath = t.type({ profileId: TrimmedNonEmpty }, "ProfilePath");
export const SendingDomainPath = t.type({ domainId: TrimmedNonEmpty }, "SendingDomainPath");

/** PATCH /sender-profiles/{id} and /reply-profiles/{id}: the display name only. */
export const RenameProfileCommand = t.exact(t.type({ name: required(DisplayName) }), "RenameProfileCommand");
export type RenameProfileCommand = t.TypeOf<typeof RenameProfileCommand>;

export { DomainName };

/** POST /sending-domains. */
export const CreateSendingDomainCommand = t.exact(t.type({ domain: required(DomainName) }), "CreateSendingDomainCommand");
export type CreateSendingDomainCommand = t.TypeOf<typeof CreateSendingDomainCommand>;
