import type { ProfileRepository } from "../company/ports.js";
import type { Campaign } from "./model.js";

export interface RequestedFrom {
  readonly email: string;
  readonly name: string | null;
}

/**
 * The From and Reply-To a campaign asks for: an address written on the campaign, else its
 * sender / reply profile. The From is then resolved as for every send (ResolveSender: only an
 * address on a verified domain is used, else the company's default sender).
 */
export async function campaignMailboxes(
  profiles: ProfileRepository,
  campaign: Campaign,
): Promise<{ readonly from: RequestedFrom | undefined; readonly replyTo: string | null }> {
  const { identity, companyId } = campaign;
  let from: RequestedFrom | undefined;
  if (identity.fromEmail) from = { email: identity.fromEmail, name: identity.fromName };
  else if (identity.senderProfileId) {
    const profile = await profiles.findSender(companyId, identity.senderProfileId);
    if (profile) from = { email: profile.email, name: profile.name };
  }
  let replyTo = identity.replyTo;
  if (!replyTo && identity.replyProfileId) replyTo = (await profiles.findReply(companyId, identity.replyProfileId))?.email ?? null;
  return { from, replyTo };
}
