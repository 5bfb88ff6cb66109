import type { Clock } from "../ports/clock.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { TrackedSend } from "./model.js";
import type { EngagementRepository } from "./ports.js";
import type { TrackingTokens } from "./tracking-tokens.js";

/** What the unsubscribe page shows its visitor. */
export interface UnsubscribePage {
  readonly companyName: string;
  readonly email: string;
  readonly unsubscribed: boolean;
}

export const unsubscribeLinkNotFound = () => notFound("This unsubscribe link is not valid");

/** The send an unsubscribe token names, with its company's name; NotFound for a token this server did not sign. */
export async function resolveUnsubscribeToken(
  tokens: TrackingTokens,
  engagements: EngagementRepository,
  tenancy: TenancyRepository,
  token: string,
  now: Date,
): Promise<Result<{ send: TrackedSend; companyName: string }>> {
  const read = tokens.readUnsubscribe(token, now);
  const send = read ? await engagements.findSend(read.sendId) : null;
  const company = send ? await tenancy.findCompany(send.companyId) : null;
  return send && company ? ok({ send, companyName: company.name }) : fail(unsubscribeLinkNotFound());
}

/** GET of an unsubscribe link: shows what would be unsubscribed, and changes nothing (link scanners fetch it too). */
export class ShowUnsubscribePage {
  constructor(
    private readonly tokens: TrackingTokens,
    private readonly engagements: EngagementRepository,
    private readonly tenancy: TenancyRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (token: string): Promise<Result<UnsubscribePage>> => {
    const resolved = await resolveUnsubscribeToken(this.tokens, this.engagements, this.tenancy, token, this.clock.now());
    if (resolved._tag === "Left") return resolved;
    const { send, companyName } = resolved.right;
    return ok({ companyName, email: send.recipientEmail, unsubscribed: send.unsubscribedAt !== null });
  };
}
