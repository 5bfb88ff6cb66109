import type { ProfileRepository } from "../company/ports.js";
import type { Sequence } from "./model.js";

export interface RequestedMailbox {
  readonly email: string;
  readonly name: string | null;
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * The From and Reply-To an email step asks for: the node's own identity fields, else the
 * sequence's (an address, or a sender / reply profile of the company). The From is then
 * resolved as for every send (ResolveSender: only an address on a verified domain is used,
 * else the company's default sender).
 */
export async function requestedIdentity(
  profiles: ProfileRepository,
  sequence: Sequence,
  config: Readonly<Record<string, unknown>> = {},
): Promise<{ readonly from: RequestedMailbox | undefined; readonly replyTo: string | null }> {
  const companyId = sequence.companyId;
  const fromProfileId = text(config.senderProfileId) ?? (text(config.fromEmail) ? null : sequence.senderProfileId);
  const fromEmail = text(config.fromEmail) ?? (text(config.senderProfileId) ? null : sequence.fromEmail);
  const fromName = text(config.fromName) ?? sequence.fromName;
  let from: RequestedMailbox | undefined;
  if (fromEmail) from = { email: fromEmail, name: fromName };
  else if (fromProfileId) {
    const profile = await profiles.findSender(companyId, fromProfileId);
    if (profile) from = { email: profile.email, name: text(config.fromName) ?? profile.name };
  }

  const replyProfileId = text(config.replyProfileId) ?? (text(config.replyTo) ? null : sequence.replyProfileId);
  let replyTo = text(config.replyTo) ?? (text(config.replyProfileId) ? null : sequence.replyToEmail);
  if (!replyTo && replyProfileId) replyTo = (await profiles.findReply(companyId, replyProfileId))?.email ?? null;
  return { from, replyTo };
}
