import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { SendingDomainRepository } from "./ports.js";
import type { MailTargets } from "./sending-domain.js";
import { toSendingDomainView, type SendingDomainView } from "./view.js";

/** GET /sending-domains: alphabetical, each with its records and their last check. */
export class ListSendingDomains {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly targets: MailTargets,
  ) {}

  execute = async (actor: Actor): Promise<Result<SendingDomainView[]>> =>
    ok((await this.domains.list(actor.companyId)).map((domain) => toSendingDomainView(domain, this.targets)));
}
