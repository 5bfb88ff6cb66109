import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { OperatorActor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { newSendingDomain } from "./create-sending-domain.js";
import type { CompanyProfileRepository, DkimKeyGenerator, SendingDomainRepository } from "./ports.js";
import type { SendingDomain } from "./sending-domain.js";

/**
 * `lifecycle admin verify-domain`: the operator vouches for a company's sending domain (their
 * relay in MAIL_URL sends for it), so it is verified without a DNS check; created with a fresh
 * key pair when missing.
 */
export class OperatorVerifyDomain {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly domains: SendingDomainRepository,
    private readonly keys: DkimKeyGenerator,
    private readonly box: SecretBox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (_operator: OperatorActor, companyId: string, name: string): Promise<Result<SendingDomain>> => {
    if (!(await this.companies.find(companyId))) return fail(notFound(`Company not found: ${companyId}`));
    let domain = await this.domains.findByName(companyId, name);
    if (!domain) {
      await this.domains.insert(await newSendingDomain(companyId, name, { keys: this.keys, box: this.box, ids: this.ids, clock: this.clock }));
      domain = await this.domains.findByName(companyId, name);
      if (!domain) return fail(notFound(`Sending domain not found: ${name}`));
    }
    const now = this.clock.now();
    await this.domains.update(companyId, domain.id, {
      status: "verified",
      verifiedBy: "operator",
      verifiedAt: domain.status === "verified" && domain.verifiedAt ? domain.verifiedAt : now,
      lastCheck: domain.lastCheck,
      lastCheckedAt: domain.lastCheckedAt,
      at: now,
    });
    const verified = await this.domains.find(companyId, domain.id);
    return verified ? ok(verified) : fail(notFound(`Sending domain not found: ${name}`));
  };
}
