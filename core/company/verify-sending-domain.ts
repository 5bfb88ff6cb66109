import type { Clock } from "../ports/clock.js";
import type { DnsResolver } from "../ports/dns-resolver.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { findSendingDomain } from "./find-sending-domain.js";
import { SENDING_DOMAIN_NOT_FOUND } from "./model.js";
import type { SendingDomainRepository } from "./ports.js";
import { checkRecord, recordsFor, statusAfterCheck, type MailTargets } from "./sending-domain.js";
import { toSendingDomainView, type SendingDomainView } from "./view.js";

/**
 * POST /sending-domains/{domainId}/verify (and /websites/{domain}/verify): looks every record up and records what was wrong
 * with each. Verified when all four are as published; a later failed check takes it back.
 */
export class VerifySendingDomain {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly targets: MailTargets,
  ) {}

  execute = async (actor: Actor, reference: string): Promise<Result<SendingDomainView>> => {
    const domain = await findSendingDomain(this.domains, actor.companyId, reference);
    if (!domain) return fail(SENDING_DOMAIN_NOT_FOUND);
    const records = await Promise.all(
      recordsFor(domain, this.targets).map(async (record) =>
        checkRecord(
          record,
          await (record.type === "TXT" ? this.dns.resolveTxt(record.name) : this.dns.resolveCname(record.name)),
          domain.dkimPublicKey,
          this.targets,
        ),
      ),
    );
    const now = this.clock.now();
    const status = statusAfterCheck(domain, records);
    const verified = status === "verified";
    await this.domains.update(actor.companyId, domain.id, {
      status,
      verifiedBy: verified ? (domain.verifiedBy ?? "dns") : null,
      verifiedAt: verified ? (domain.verifiedAt ?? now) : null,
      lastCheck: { checkedAt: now.toISOString(), records },
      lastCheckedAt: now,
      at: now,
    });
    const updated = await this.domains.find(actor.companyId, domain.id);
    return updated ? ok(toSendingDomainView(updated, this.targets)) : fail(SENDING_DOMAIN_NOT_FOUND);
  };
}
