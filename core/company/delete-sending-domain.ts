import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { findSendingDomain } from "./find-sending-domain.js";
import { SENDING_DOMAIN_NOT_FOUND } from "./model.js";
import type { SendingDomainRepository } from "./ports.js";

/** DELETE /sending-domains/{domainId} and /websites/{domain}: its sender profiles stay, with domain null and canSend false. */
export class DeleteSendingDomain {
  constructor(private readonly domains: SendingDomainRepository) {}

  execute = async (actor: Actor, reference: string): Promise<Result<{ domainId: string; domain: string }>> => {
    const found = await findSendingDomain(this.domains, actor.companyId, reference);
    if (!found || !(await this.domains.delete(actor.companyId, found.id))) return fail(SENDING_DOMAIN_NOT_FOUND);
    return ok({ domainId: found.id, domain: found.domain });
  };
}
