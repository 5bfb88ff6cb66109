import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { findSendingDomain } from "./find-sending-domain.js";
import { SENDING_DOMAIN_NOT_FOUND } from "./model.js";
import type { SendingDomainRepository } from "./ports.js";
import type { MailTargets } from "./sending-domain.js";
import { toSendingDomainView, type SendingDomainView } from "./view.js";

/** GET /sending-domains/{domainId} and /websites/{domain}: the domain named by its ID or its name. */
export class GetSendingDomain {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly targets: MailTargets,
  ) {}

  execute = async (actor: Actor, reference: string): Promise<Result<SendingDomainView>> => {
    const domain = await findSendingDomain(this.domains, actor.companyId, reference);
    return domain ? ok(toSendingDomainView(domain, this.targets)) : fail(SENDING_DOMAIN_NOT_FOUND);
  };
}
