import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CompanyPath, ProfilePath, RenameProfileCommand, UpdateCompanyProfileCommand } from "../../../core/company/commands.js";
import { DeleteSenderProfile } from "../../../core/company/delete-sender-profile.js";
import { GetCompanyProfile } from "../../../core/company/get-company-profile.js";
import { ListSenderProfiles } from "../../../core/company/list-sender-profiles.js";
import { COMPANY_NOT_FOUND } from "../../../core/company/model.js";
import { RenameProfile } from "../../../core/company/rename-profile.js";
import { UpdateCompanyProfile } from "../../../core/company/update-company-profile.js";
import { CompanyView, ReplyProfileView, SenderProfileView } from "../../../core/company/view.js";
import { fail } from "../../../core/shared/result.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const NullableId = t.union([Id, t.null]);

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
export const companyRoutes = routeModule(
  {
    getCompanyProfile: GetCompanyProfile,
    updateCompanyProfile: UpdateCompanyProfile,
    listSenderProfiles: ListSenderProfiles,
    renameProfile: RenameProfile,
    deleteSenderProfile: DeleteSenderProfile,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/companies/:companyId",
      tag: "Company",
      scopes: ["account:read"],
      summary:
        "The company profile: brand, email theme (stored and resolved), default From and Reply-To, reply handling. 404 'Company not found' for any company but the key's",
      params: CompanyPath,
      response: view({ company: CompanyView }),
      errors: [404],
      handle: async ({ input, actor }) => {
        if (input.params.companyId !== actor.companyId) return fail(COMPANY_NOT_FOUND);
        return under("company")(await uses.getCompanyProfile.execute(actor.companyId));
      },
    }),
    defineRoute({
      method: "patch",
      path: "/companies/:companyId",
      tag: "Company",
      scopes: ["company_profile:manage"],
      summary: PATCH_RULES,
      params: CompanyPath,
      body: UpdateCompanyProfileCommand,
      response: view({ company: CompanyView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("company")(await uses.updateCompanyProfile.execute(actor, input.params.companyId, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/sender-profiles",
      tag: "Company",
      scopes: ["account:read"],
      summary:
        "Every From (sender) and Reply-To profile, oldest first. canSend: the From address is on a verified sending domain (domain null: its domain was deleted)",
      response: view({
        senderProfiles: t.readonlyArray(SenderProfileView),
        replyProfiles: t.readonlyArray(ReplyProfileView),
        defaultSenderProfileId: NullableId,
        defaultReplyProfileId: NullableId,
      }),
      handle: async ({ actor }) => uses.listSenderProfiles.execute(actor),
    }),
    defineRoute({
      method: "patch",
      path: "/sender-profiles/:profileId",
      tag: "Company",
      scopes: ["senders:write"],
      summary: "Rename a sender profile (display name only; renamed false when unchanged). 404 'Sender profile not found'",
      params: ProfilePath,
      body: RenameProfileCommand,
      response: view({ senderProfile: SenderProfileView, renamed: t.boolean }),
      errors: [404, 422],
      handle: async ({ input, actor }) =>
        map(({ profile, renamed }: { profile: SenderProfileView; renamed: boolean }) => ({ senderProfile: profile, renamed }))(
          await uses.renameProfile.execute(actor, "sender", input.params.profileId, input.body),
        ),
    }),
    defineRoute({
      method: "patch",
      path: "/reply-profiles/:profileId",
      tag: "Company",
      scopes: ["senders:write"],
      summary: "Rename a reply profile (display name only; renamed false when unchanged). 404 'Reply profile not found'",
      params: ProfilePath,
      body: RenameProfileCommand,
      response: view({ replyProfile: ReplyProfileView, renamed: t.boolean }),
      errors: [404, 422],
      handle: async ({ input, actor }) =>
        map(({ profile, renamed }: { profile: ReplyProfileView; renamed: boolean }) => ({ replyProfile: profile, renamed }))(
          await uses.renameProfile.execute(actor, "reply", input.params.profileId, input.body),
        ),
    }),
    defineRoute({
      method: "delete",
      path: "/sender-profiles/:profileId",
      tag: "Company",
      scopes: ["senders:write"],
      summary:
        "Delete a sender profile. Refused (400) for the company's last sender profile and for the default one (choose another default first). 404 'Sender profile not found'",
      params: ProfilePath,
      response: view({ senderProfileId: Id }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.deleteSenderProfile.execute(actor, input.params.profileId),
    }),
  ],
);
