import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Company, Membership, TeamMember } from "./model.js";
import type { TenancyRepository } from "./ports.js";

export interface AccountDescription {
  /** The acting member in the selected company. */
  readonly member: TeamMember;
  readonly company: Company;
  /** Every company the acting person belongs to. */
  readonly memberships: readonly Membership[];
}

export const COMPANY_NOT_FOUND = notFound("Company not found");

/** Who the caller is and which companies they can select. */
export class DescribeAccount {
  constructor(private readonly tenancy: TenancyRepository) {}

  execute = async (actor: Actor): Promise<Result<AccountDescription>> => {
    const memberships = await this.tenancy.listMemberships(actor.userId);
    const current = memberships.find((membership) => membership.company.id === actor.companyId);
    if (!current) return fail(COMPANY_NOT_FOUND);
    return ok({ member: current.member, company: current.company, memberships });
  };
}
