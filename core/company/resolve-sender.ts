import { conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { canSend, COMPANY_NOT_FOUND, domainOf, type SenderProfile } from "./model.js";
import type { CompanyProfileRepository, ProfileRepository, SendingDomainRepository } from "./ports.js";

export interface Mailbox {
  readonly email: string;
  readonly name: string | null;
}

export interface ResolvedSender {
  readonly from: Mailbox;
  /** The company's default Reply-To, or null (replies then go to the From). */
  readonly replyTo: Mailbox | null;
}

export const NO_VERIFIED_SENDER = conflict(
  "No verified sender: add and verify a sending domain (POST /api/v1/sending-domains), then set a From address on it",
  {
    code: "no_verified_sender",
  },
);

/**
 * The From and Reply-To of one send (the DKIM key is looked up at delivery). A requested From is used when its address is on
 * a verified sending domain of the company, else ignored (compat: "from ... on a verified domain,
 * else ignored"); then the default sender profile, else the oldest sender profile that can send;
 * none at all is a 409.
 */
export class ResolveSender {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly profiles: ProfileRepository,
    private readonly domains: SendingDomainRepository,
  ) {}

  execute = async (companyId: string, requested?: { readonly email: string; readonly name?: string | null }): Promise<Result<ResolvedSender>> => {
    const company = await this.companies.find(companyId);
    if (!company) return fail(COMPANY_NOT_FOUND);
    const senders = await this.profiles.listSenders(companyId);
    const usable = senders.filter(canSend);
    const fallback: SenderProfile | undefined = usable.find((profile) => profile.id === company.defaultSenderProfileId) ?? usable[0];

    let from: Mailbox | null = null;
    if (requested) {
      const email = requested.email.trim().toLowerCase();
      const domain = await this.domains.findByName(companyId, domainOf(email));
      if (domain?.status === "verified") {
        const profile = senders.find((candidate) => candidate.email === email);
        from = { email, name: requested.name?.trim() || profile?.name || fallback?.name || company.name };
      }
    }
    if (!from && fallback) from = { email: fallback.email, name: fallback.name };
    if (!from) return fail(NO_VERIFIED_SENDER);

    const reply = company.defaultReplyProfileId ? await this.profiles.findReply(companyId, company.defaultReplyProfileId) : null;
    return ok({ from, replyTo: reply ? { email: reply.email, name: reply.name } : null });
  };
}
