import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { RenameProfileCommand } from "./commands.js";
import { COMPANY_NOT_FOUND, REPLY_PROFILE_NOT_FOUND, SENDER_PROFILE_NOT_FOUND } from "./model.js";
import type { CompanyProfileRepository, ProfileRepository } from "./ports.js";
import { toReplyProfileView, toSenderProfileView, type ReplyProfileView, type SenderProfileView } from "./view.js";

/** `renamed` is false when the profile already had the name. */
export type RenamedProfile =
  | { readonly kind: "sender"; readonly profile: SenderProfileView; readonly renamed: boolean }
  | { readonly kind: "reply"; readonly profile: ReplyProfileView; readonly renamed: boolean };

/** PATCH /sender-profiles/{id} and /reply-profiles/{id}: the display name only (compat-reference §17). */
export class RenameProfile {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly profiles: ProfileRepository,
    private readonly clock: Clock,
  ) {}

  /** The profile comes back as the kind asked for. */
  execute(actor: Actor, kind: "sender", profileId: string, input: RenameProfileCommand): Promise<Result<Extract<RenamedProfile, { kind: "sender" }>>>;
  execute(actor: Actor, kind: "reply", profileId: string, input: RenameProfileCommand): Promise<Result<Extract<RenamedProfile, { kind: "reply" }>>>;
  async execute(actor: Actor, kind: "sender" | "reply", profileId: string, input: RenameProfileCommand): Promise<Result<RenamedProfile>> {
    const company = await this.companies.find(actor.companyId);
    if (!company) return fail(COMPANY_NOT_FOUND);
    const find = () => (kind === "sender" ? this.profiles.findSender(actor.companyId, profileId) : this.profiles.findReply(actor.companyId, profileId));
    const before = await find();
    if (!before) return fail(kind === "sender" ? SENDER_PROFILE_NOT_FOUND : REPLY_PROFILE_NOT_FOUND);
    const renamed = before.name !== input.name;
    if (renamed) await this.profiles.rename(actor.companyId, kind, profileId, input.name, this.clock.now());
    if (kind === "sender") {
      const profile = await this.profiles.findSender(actor.companyId, profileId);
      return profile ? ok({ kind, profile: toSenderProfileView(profile, company.defaultSenderProfileId), renamed }) : fail(SENDER_PROFILE_NOT_FOUND);
    }
    const profile = await this.profiles.findReply(actor.companyId, profileId);
    return profile ? ok({ kind, profile: toReplyProfileView(profile, company.defaultReplyProfileId), renamed }) : fail(REPLY_PROFILE_NOT_FOUND);
  }
}
