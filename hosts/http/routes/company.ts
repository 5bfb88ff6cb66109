import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CompanyPath, ProfilePath, RenameProfileCommand, UpdateCompanyProfileCommand } from "../../../core/company/commands.js";
import { DeleteSenderProfile } from "../../../core/company/delete-sender-profile.js";
import { GetCompanyProfile } from "../../../core/company/get-company-profile.js";
import { ListSenderProfiles, type SenderProfilesView } from "../../../core/company/list-sender-profiles.js";
import { COMPANY_NOT_FOUND } from "../../../core/company/model.js";
import { RenameProfile } from "../../../core/company/rename-profile.js";
import { UpdateCompanyProfile } from "../../../core/company/update-company-profile.js";
import { fail } from "../../../core/shared/result.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

const NullableId = t.union([Id, t.null]);
const DomainStatus = t.union([t.keyof({ pending: null, verified: null, failed: null }), t.null]);

const ThemeResource = t.type({
  presetId: t.string,
  colors: t.record(t.string, t.string),
  typography: t.record(t.string, t.number),
  layout: t.record(t.string, t.number),
});

export const CompanyResource = t.type({
  id: Id,
  name: t.string,
  primaryColor: NullableString,
  emailTheme: t.union([t.partial({ presetId: t.string, colors: t.record(t.string, t.string), typography: t.record(t.string, t.number), layout: t.record(t.string, t.number) }), t.null]),
  resolvedEmailTheme: ThemeResource,
  brandColors: t.record(t.string, t.unknown),
  description: NullableString,
  companyContext: NullableString,
  toneVoice: NullableString,
  emailLengthPreference: NullableString,
  valueProps: t.array(t.unknown),
  defaultSenderProfileId: NullableId,
  defaultFromName: NullableString,
  defaultFromEmail: NullableString,
  defaultReplyProfileId: NullableId,
  defaultReplyToName: NullableString,
  defaultReplyToEmail: NullableString,
  replyTrackingEnabled: t.boolean,
  replyTrackingDomainMode: t.keyof({ service: null, custom: null }),
  forwardReplies: t.boolean,
  replyRetentionDays: t.number,
  createdAt: Timestamp,
});

const SenderProfileResource = t.type({
  id: Id,
  name: t.string,
  email: t.string,
  domainId: NullableId,
  domain: NullableString,
  domainStatus: DomainStatus,
  canSend: t.boolean,
  isDefault: t.boolean,
  createdAt: Timestamp,
});
const ReplyProfileResource = t.type({ id: Id, name: t.string, email: t.string, isDefault: t.boolean, createdAt: Timestamp });

const PATCH_RULES = [
  "Partial update of the company profile. Colors are 6-digit hex (#1A2B3C; 400 'Invalid hex color for <field>: ...').",
  "primaryColor also sets the theme primary unless emailTheme.colors.primary is given. emailTheme: null resets to the platform default; otherwise merged into the stored theme",
  "(a null key removes that override), numbers clamped to their ranges, presetId default|soft|editorial|bold. brandColors is replaced wholesale (null empties it).",
  "Description, companyContext and toneVoice: blank or null clears. senderProfileId and fromEmail are exclusive (400);",
  "fromName alone renames the default From profile; with senderProfileId it renames that profile; with fromEmail it names the profile of that address,",
  "created when the address has none (the address must be on a sending domain of the company, else 400; it can send once the domain is verified);",
  "an address with several display names is refused (400). replyProfileId, replyTo and replyToName follow the same rules, for any address.",
  "The company is the key's (another company's ID: 404 'Company not found').",
].join(" ");

/** The company profile (spec, Company and identity) and its sender and reply profiles (compat-reference §17). */
export const companyRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/companies/:companyId",
    tag: "Company",
    scopes: ["account:read"],
    summary: "The company profile: brand, email theme (stored and resolved), default From and Reply-To, reply handling. 404 'Company not found' for any company but the key's",
    params: CompanyPath,
    response: t.type({ company: CompanyResource }),
    errors: [404],
    handle: async ({ input, actor, container }) => {
      if (input.params.companyId !== actor.companyId) return fail(COMPANY_NOT_FOUND);
      return map((company) => ({ company }))(await container.get(GetCompanyProfile).execute(actor.companyId));
    },
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/companies/:companyId",
    tag: "Company",
    scopes: ["company_profile:manage"],
    summary: PATCH_RULES,
    params: CompanyPath,
    body: UpdateCompanyProfileCommand,
    response: t.type({ company: CompanyResource }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((company) => ({ company }))(await container.get(UpdateCompanyProfile).execute(actor, input.params.companyId, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/sender-profiles",
    tag: "Company",
    scopes: ["account:read"],
    summary: "Every From (sender) and Reply-To profile, oldest first. canSend: the From address is on a verified sending domain (domain null: its domain was deleted)",
    response: t.type({
      senderProfiles: t.array(SenderProfileResource),
      replyProfiles: t.array(ReplyProfileResource),
      defaultSenderProfileId: NullableId,
      defaultReplyProfileId: NullableId,
    }),
    handle: async ({ actor, container }) => map((view: SenderProfilesView) => ({ ...view }))(await container.get(ListSenderProfiles).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/sender-profiles/:profileId",
    tag: "Company",
    scopes: ["senders:write"],
    summary: "Rename a sender profile (display name only; renamed false when unchanged). 404 'Sender profile not found'",
    params: ProfilePath,
    body: RenameProfileCommand,
    response: t.type({ senderProfile: SenderProfileResource, renamed: t.boolean }),
    errors: [404, 422],
    handle: async ({ input, actor, container }) =>
      map((result: { profile: unknown; renamed: boolean }) => ({ senderProfile: result.profile, renamed: result.renamed }))(
        await container.get(RenameProfile).execute(actor, "sender", input.params.profileId, input.body),
      ),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/reply-profiles/:profileId",
    tag: "Company",
    scopes: ["senders:write"],
    summary: "Rename a reply profile (display name only; renamed false when unchanged). 404 'Reply profile not found'",
    params: ProfilePath,
    body: RenameProfileCommand,
    response: t.type({ replyProfile: ReplyProfileResource, renamed: t.boolean }),
    errors: [404, 422],
    handle: async ({ input, actor, container }) =>
      map((result: { profile: unknown; renamed: boolean }) => ({ replyProfile: result.profile, renamed: result.renamed }))(
        await container.get(RenameProfile).execute(actor, "reply", input.params.profileId, input.body),
      ),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/sender-profiles/:profileId",
    tag: "Company",
    scopes: ["senders:write"],
    summary: "Delete a sender profile. Refused (400) for the company's last sender profile and for the default one (choose another default first). 404 'Sender profile not found'",
    params: ProfilePath,
    response: t.type({ senderProfileId: Id }),
    errors: [400, 404],
    handle: async ({ input, actor, container }) => container.get(DeleteSenderProfile).execute(actor, input.params.profileId),
  }),
];
