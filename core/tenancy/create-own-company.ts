import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateOwnCompanyCommand } from "./commands.js";
import { COMPANY_NOT_FOUND } from "./describe-account.js";
import type { Company } from "./model.js";
import type { TenancyRepository } from "./ports.js";

/**
 * POST /companies: the calling person creates another company and owns it. Their key then acts
 * in it when the request selects it with `x-company-id` (as their owner there, within the key's
 * own scopes); nobody else's key can select it. No key is issued: the caller already has one.
 */
export class CreateOwnCompany {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: CreateOwnCompanyCommand): Promise<Result<Company>> => {
    const caller = await this.tenancy.findMember(actor.companyId, actor.memberId);
    if (!caller) return fail(COMPANY_NOT_FOUND);
    const now = this.clock.now();
    const company: Company = {
      id: this.ids.next("co"),
      name: input.name ?? nameFromDomain(input.domain),
      websiteUrl: `https://${input.domain}`,
      createdAt: now,
    };
    await this.tenancy.createCompany(company, {
      id: this.ids.next("mem"),
      companyId: company.id,
      role: "owner",
      createdAt: now,
      // The caller's user (matched by email), not a new person.
      user: { id: this.ids.next("usr"), email: caller.email, name: caller.name, createdAt: now },
    });
    return ok(company);
  };
}

/** `www.acme-labs.com` -> `Acme-labs`: the first label after `www`, capitalised (there is no brand extraction to ask). */
export function nameFromDomain(domain: string): string {
  const label = domain.replace(/^www\./, "").split(".")[0] ?? domain;
  return label.charAt(0).toUpperCase() + label.slice(1);
}
