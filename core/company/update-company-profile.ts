import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, type DomainError } from "../shared/errors.js";
import { fail, type Result } from "../shared/result.js";
import type { EmailThemePatch, UpdateCompanyProfileCommand } from "./commands.js";
import { clampTo, THEME_LAYOUT_RANGES, THEME_TYPOGRAPHY_RANGES, type StoredEmailTheme } from "./email-theme.js";
import type { GetCompanyProfile } from "./get-company-profile.js";
import { COMPANY_NOT_FOUND, domainOf, NO_SUPPORTED_FIELDS, type CompanyProfile, type CompanyProfileChanges, type Profile, type ProfileKind } from "./model.js";
import type { CompanyProfileRepository, CompanyProfileUpdate, ProfileRepository, SendingDomainRepository } from "./ports.js";
import type { CompanyView } from "./view.js";

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** A 6-digit hex color, upper-cased; a 400 naming the field otherwise (spec: "invalid hex color"). */
export function hexColor(field: string, value: string): Result<string> {
  return HEX_COLOR.test(value.trim())
    ? { _tag: "Right", right: value.trim().toUpperCase() }
    : fail(badRequest(`Invalid hex color for ${field}: '${value}' (use a 6-digit hex color such as #1A2B3C)`));
}

/** The footer colors brandColors may hold (spec, Company). */
const FOOTER_THEME_COLORS = ["backgroundColor", "companyTextColor", "metaTextColor", "linkColor", "borderColor"] as const;

type Numbers = Record<string, number | null | undefined>;

/** Overrides merged key by key; null removes one; numbers clamped to their range. */
function mergeNumbers(
  stored: Partial<Record<string, number>> | undefined,
  patch: Numbers | undefined,
  ranges: Readonly<Record<string, readonly [number, number]>>,
) {
  const merged: Record<string, number> = { ...(stored as Record<string, number> | undefined) };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = clampTo(value, ranges[key]!);
  }
  return merged;
}

/** The stored theme after a partial update, or a 400 for a bad color. Empty overrides are dropped; nothing left is null. */
function mergeTheme(stored: StoredEmailTheme | null, patch: EmailThemePatch, dropPrimary: boolean): Result<StoredEmailTheme | null> {
  const colors: Record<string, string> = { ...stored?.colors };
  if (dropPrimary) delete colors.primary;
  for (const [key, value] of Object.entries(patch.colors ?? {})) {
    if (value === null) delete colors[key];
    else if (value !== undefined) {
      const hex = hexColor(`emailTheme.colors.${key}`, value);
      if (hex._tag === "Left") return hex;
      colors[key] = hex.right;
    }
  }
  const presetId = patch.presetId === null ? undefined : (patch.presetId ?? stored?.presetId);
  const typography = mergeNumbers(stored?.typography, patch.typography, THEME_TYPOGRAPHY_RANGES);
  const layout = mergeNumbers(stored?.layout, patch.layout, THEME_LAYOUT_RANGES);
  const theme: StoredEmailTheme = {
    ...(presetId ? { presetId } : {}),
    ...(Object.keys(colors).length ? { colors } : {}),
    ...(Object.keys(typography).length ? { typography } : {}),
    ...(Object.keys(layout).length ? { layout } : {}),
  };
  return { _tag: "Right", right: Object.keys(theme).length ? theme : null };
}

function checkBrandColors(brandColors: Record<string, unknown>): DomainError | null {
  const footer = brandColors.footerTheme;
  if (footer === undefined) return null;
  if (typeof footer !== "object" || footer === null || Array.isArray(footer)) return badRequest("brandColors.footerTheme must be an object");
  for (const key of FOOTER_THEME_COLORS) {
    const value = (footer as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") return badRequest(`Invalid hex color for brandColors.footerTheme.${key}: must be a string such as #1A2B3C`);
    const hex = hexColor(`brandColors.footerTheme.${key}`, value);
    if (hex._tag === "Left") return hex.left;
  }
  return null;
}

interface IdentityRequest {
  readonly kind: ProfileKind;
  readonly profileId: string | undefined;
  readonly email: string | undefined;
  readonly name: string | undefined;
}

const FIELDS = {
  sender: { id: "senderProfileId", email: "fromEmail", name: "fromName", label: "Sender profile", prefix: "sp" },
  reply: { id: "replyProfileId", email: "replyTo", name: "replyToName", label: "Reply profile", prefix: "rp" },
} as const;

interface IdentityPlan {
  readonly defaultId?: string;
  readonly create?: CompanyProfileUpdate["createProfiles"][number];
  readonly rename?: CompanyProfileUpdate["renameProfiles"][number];
}

/**
 * PATCH /companies/{companyId}: a partial update of the profile, brand, email theme, default
 * From and Reply-To identities and reply handling (spec, Company and identity).
 */
export class UpdateCompanyProfile {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly profiles: ProfileRepository,
    private readonly domains: SendingDomainRepository,
    private readonly getProfile: GetCompanyProfile,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, companyId: string, input: UpdateCompanyProfileCommand): Promise<Result<CompanyView>> => {
    // A tenant never learns whether another company exists.
    if (companyId !== actor.companyId) return fail(COMPANY_NOT_FOUND);
    if (Object.values(input).every((value) => value === undefined)) return fail(NO_SUPPORTED_FIELDS);
    const company = await this.companies.find(companyId);
    if (!company) return fail(COMPANY_NOT_FOUND);

    const changes: { -readonly [K in keyof CompanyProfileChanges]: CompanyProfileChanges[K] } = {};
    for (const key of ["name", "description", "companyContext", "toneVoice", "replyTrackingEnabled", "replyTrackingDomainMode", "forwardReplies"] as const) {
      if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
    }
    if (input.valueProps !== undefined) changes.valueProps = input.valueProps ?? [];

    if (input.primaryColor !== undefined) {
      if (input.primaryColor === null) changes.primaryColor = null;
      else {
        const hex = hexColor("primaryColor", input.primaryColor);
        if (hex._tag === "Left") return hex;
        changes.primaryColor = hex.right;
      }
    }
    // primaryColor sets the theme primary too, unless this request's theme names one.
    const dropPrimary = typeof input.primaryColor === "string" && (input.emailTheme === null || input.emailTheme?.colors?.primary === undefined);
    if (input.emailTheme === null) changes.emailTheme = null;
    else if (input.emailTheme !== undefined || dropPrimary) {
      const theme = mergeTheme(company.emailTheme, input.emailTheme ?? {}, dropPrimary);
      if (theme._tag === "Left") return theme;
      changes.emailTheme = theme.right;
    }

    if (input.brandColors !== undefined) {
      const brandColors = input.brandColors ?? {};
      const error = checkBrandColors(brandColors);
      if (error) return fail(error);
      changes.brandColors = brandColors;
    }

    const sender = await this.planIdentity(
      company,
      { kind: "sender", profileId: input.senderProfileId, email: input.fromEmail, name: input.fromName },
      input.name,
    );
    if (sender._tag === "Left") return sender;
    const reply = await this.planIdentity(
      company,
      { kind: "reply", profileId: input.replyProfileId, email: input.replyTo, name: input.replyToName },
      input.name,
    );
    if (reply._tag === "Left") return reply;
    if (sender.right.defaultId) changes.defaultSenderProfileId = sender.right.defaultId;
    if (reply.right.defaultId) changes.defaultReplyProfileId = reply.right.defaultId;

    const plans = [sender.right, reply.right];
    const applied = await this.companies.apply(companyId, {
      changes,
      createProfiles: plans.flatMap((plan) => (plan.create ? [plan.create] : [])),
      renameProfiles: plans.flatMap((plan) => (plan.rename ? [plan.rename] : [])),
      at: this.clock.now(),
    });
    if (!applied) return fail(COMPANY_NOT_FOUND);
    return this.getProfile.execute(companyId);
  };

  /** Which profile becomes the default, and which is created or renamed (spec's fromName/replyToName rules). */
  private async planIdentity(company: CompanyProfile, request: IdentityRequest, newCompanyName: string | undefined): Promise<Result<IdentityPlan>> {
    const fields = FIELDS[request.kind];
    const right = (plan: IdentityPlan): Result<IdentityPlan> => ({ _tag: "Right", right: plan });
    const renamed = (profile: Profile): IdentityPlan["rename"] =>
      request.name !== undefined && request.name !== profile.name ? { kind: request.kind, id: profile.id, name: request.name } : undefined;

    if (request.profileId !== undefined && request.email !== undefined) {
      return fail(badRequest(`Provide either ${fields.id} or ${fields.email}, not both`));
    }
    if (request.profileId !== undefined) {
      const profile =
        request.kind === "sender"
          ? await this.profiles.findSender(company.id, request.profileId)
          : await this.profiles.findReply(company.id, request.profileId);
      if (!profile) return fail(badRequest(`${fields.label} not found: ${request.profileId}`));
      return right({ defaultId: profile.id, rename: renamed(profile) });
    }
    if (request.email !== undefined) {
      const email = request.email;
      const all: Profile[] = request.kind === "sender" ? await this.profiles.listSenders(company.id) : await this.profiles.listReplies(company.id);
      const same = all.filter((profile) => profile.email === email);
      const names = [...new Set(same.map((profile) => profile.name))];
      if (names.length > 1) {
        return fail(badRequest(`${email} has several display names (${names.join(", ")}): choose one with ${fields.id}`));
      }
      if (same[0]) return right({ defaultId: same[0].id, rename: renamed(same[0]) });
      if (request.kind === "sender" && !(await this.domains.findByName(company.id, domainOf(email)))) {
        return fail(
          badRequest(
            `${email} is not on a sending domain of this company: add ${domainOf(email)} with POST /api/v1/sending-domains, publish its DNS records and verify it`,
          ),
        );
      }
      const id = this.ids.next(fields.prefix);
      return right({ defaultId: id, create: { kind: request.kind, id, email, name: request.name ?? newCompanyName ?? company.name, at: this.clock.now() } });
    }
    if (request.name !== undefined) {
      const currentId = request.kind === "sender" ? company.defaultSenderProfileId : company.defaultReplyProfileId;
      const current = currentId
        ? request.kind === "sender"
          ? await this.profiles.findSender(company.id, currentId)
          : await this.profiles.findReply(company.id, currentId)
        : null;
      if (!current)
        return fail(
          badRequest(
            `${fields.name} renames the default ${request.kind === "sender" ? "From" : "Reply-To"} profile, and there is none: give ${fields.email} too`,
          ),
        );
      return right({ rename: renamed(current) });
    }
    return right({});
  }
}
