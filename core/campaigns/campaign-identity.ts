import type { ProfileRepository } from "../company/ports.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignIdentity } from "./model.js";

export interface IdentityInput {
  readonly senderProfileId?: string | undefined;
  readonly fromEmail?: string | undefined;
  readonly fromName?: string | undefined;
  readonly replyProfileId?: string | undefined;
  readonly replyTo?: string | undefined;
  readonly replyToName?: string | undefined;
}

/**
 * The identity after an edit: a saved profile of the company replaces a written address and the
 * other way round (compat: senderProfileId xor fromEmail+fromName, replyProfileId xor
 * replyTo+replyToName). Fields not given are kept.
 */
export async function editedIdentity(
  profiles: ProfileRepository,
  companyId: string,
  current: CampaignIdentity,
  input: IdentityInput,
): Promise<Result<CampaignIdentity>> {
  let identity = current;
  if (input.senderProfileId !== undefined && (input.fromEmail !== undefined || input.fromName !== undefined)) {
    return fail(badRequest("Provide senderProfileId or fromEmail and fromName, not both"));
  }
  if (input.replyProfileId !== undefined && (input.replyTo !== undefined || input.replyToName !== undefined)) {
    return fail(badRequest("Provide replyProfileId or replyTo and replyToName, not both"));
  }
  if (input.senderProfileId !== undefined) {
    if (!(await profiles.findSender(companyId, input.senderProfileId))) return fail(badRequest(`Sender profile not found: ${input.senderProfileId}`));
    identity = { ...identity, senderProfileId: input.senderProfileId, fromEmail: null, fromName: null };
  }
  if (input.fromEmail !== undefined || input.fromName !== undefined) {
    const fromEmail = input.fromEmail ?? identity.fromEmail;
    if (fromEmail === null) return fail(badRequest("fromName needs fromEmail (or use senderProfileId)"));
    identity = { ...identity, senderProfileId: null, fromEmail, fromName: input.fromName ?? identity.fromName };
  }
  if (input.replyProfileId !== undefined) {
    if (!(await profiles.findReply(companyId, input.replyProfileId))) return fail(badRequest(`Reply profile not found: ${input.replyProfileId}`));
    identity = { ...identity, replyProfileId: input.replyProfileId, replyTo: null, replyToName: null };
  }
  if (input.replyTo !== undefined || input.replyToName !== undefined) {
    const replyTo = input.replyTo ?? identity.replyTo;
    if (replyTo === null) return fail(badRequest("replyToName needs replyTo (or use replyProfileId)"));
    identity = { ...identity, replyProfileId: null, replyTo, replyToName: input.replyToName ?? identity.replyToName };
  }
  return ok(identity);
}
