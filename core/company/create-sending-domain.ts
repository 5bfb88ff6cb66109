import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateSendingDomainCommand } from "./commands.js";
import type { DkimKeyGenerator, SendingDomainRepository } from "./ports.js";
import { dkimSelectorFor, type MailTargets, type SendingDomain } from "./sending-domain.js";
import { toSendingDomainView, type SendingDomainView } from "./view.js";

export const SENDING_DOMAIN_EXISTS = conflict("Sending domain already exists");

/** A pending domain with a fresh DKIM key pair; the private key is sealed before it is stored. */
export async function newSendingDomain(
  companyId: string,
  domain: string,
  parts: { keys: DkimKeyGenerator; box: SecretBox; ids: IdGenerator; clock: Clock },
): Promise<SendingDomain> {
  const pair = await parts.keys.generate();
  const now = parts.clock.now();
  return {
    id: parts.ids.next("sdom"),
    companyId,
    domain,
    status: "pending",
    verifiedBy: null,
    dkimSelector: dkimSelectorFor(now),
    dkimPublicKey: pair.publicKey,
    dkimPrivateKeySealed: parts.box.seal(pair.privateKey),
    lastCheck: null,
    verifiedAt: null,
    lastCheckedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** POST /sending-domains: the domain and the DNS records to publish before verifying it. */
export class CreateSendingDomain {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly keys: DkimKeyGenerator,
    private readonly box: SecretBox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly targets: MailTargets,
  ) {}

  execute = async (actor: Actor, input: CreateSendingDomainCommand): Promise<Result<SendingDomainView>> => {
    if (await this.domains.findByName(actor.companyId, input.domain)) return fail(SENDING_DOMAIN_EXISTS);
    const domain = await newSendingDomain(actor.companyId, input.domain, { keys: this.keys, box: this.box, ids: this.ids, clock: this.clock });
    if (!(await this.domains.insert(domain))) return fail(SENDING_DOMAIN_EXISTS);
    return ok(toSendingDomainView(domain, this.targets));
  };
}
