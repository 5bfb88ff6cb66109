import { DomainName } from "./commands.js";
import type { SendingDomainRepository } from "./ports.js";
import type { SendingDomain } from "./sending-domain.js";

/**
 * A company's sending domain named by its ID (`/sending-domains/{id}`) or by the domain itself
 * (`/websites/{domain}`, the official client's path), so both route families share the use cases.
 * An ID is tried first; the name is compared as stored (lower case, ASCII form, no trailing dot).
 */
export async function findSendingDomain(domains: SendingDomainRepository, companyId: string, reference: string): Promise<SendingDomain | null> {
  const byId = await domains.find(companyId, reference);
  if (byId) return byId;
  const name = DomainName.decode(reference);
  return name._tag === "Right" ? domains.findByName(companyId, name.right) : null;
}
