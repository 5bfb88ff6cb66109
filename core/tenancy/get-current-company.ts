import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { COMPANY_NOT_FOUND } from "./describe-account.js";
import type { Company } from "./model.js";
import type { TenancyRepository } from "./ports.js";

/** The company the caller acts in (GET /subscribers/me). */
export class GetCurrentCompany {
  constructor(private readonly tenancy: TenancyRepository) {}

  execute = async (actor: Actor): Promise<Result<Company>> => {
    const company = await this.tenancy.findCompany(actor.companyId);
    return company ? ok(company) : fail(COMPANY_NOT_FOUND);
  };
}
