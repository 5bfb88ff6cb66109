import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { SENDING_DOMAIN_NOT_FOUND } from "./model.js";
import type { SendingDomainRepository } from "./ports.js";

/** DELETE /sending-domains/{domainId}: its sender profiles stay, with domain null and canSend false. */
export class DeleteSendingDomain {
  constructor(private readonly domains: SendingDomainRepository) {}

  execute = async (actor: Actor, domainId: string): Promise<Result<{ domainId: string }>> =>
    (await this.domains.delete(actor.companyId, domainId)) ? ok({ domainId }) : fail(SENDING_DOMAIN_NOT_FOUND);
}
