import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { OperatorActor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { COMPANY_NOT_FOUND, domainOf, type Profile } from "./model.js";
import type { OperatorVerifyDomain } from "./operator-verify-domain.js";
import type { CompanyProfileRepository, ProfileRepository } from "./ports.js";

/**
 * `lifecycle admin create-company --sender EMAIL`: the address's domain becomes an
 * operator-verified sending domain and the address the default sender, so the company can
 * send at once. An existing profile for the address is reused.
 */
export class SetUpOperatorSender {
  constructor(
    private readonly companies: CompanyProfileRepository,
    private readonly profiles: ProfileRepository,
    private readonly verifyDomain: OperatorVerifyDomain,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (operator: OperatorActor, companyId: string, email: string): Promise<Result<Profile>> => {
    const company = await this.companies.find(companyId);
    if (!company) return fail(COMPANY_NOT_FOUND);
    const domain = await this.verifyDomain.execute(operator, companyId, domainOf(email));
    if (domain._tag === "Left") return domain;
    const existing = (await this.profiles.listSenders(companyId)).find((profile) => profile.email === email);
    const id = existing?.id ?? this.ids.next("sp");
    const at = this.clock.now();
    await this.companies.apply(companyId, {
      changes: { defaultSenderProfileId: id },
      createProfiles: existing ? [] : [{ kind: "sender", id, name: company.name, email, at }],
      renameProfiles: [],
      at,
    });
    const profile = await this.profiles.findSender(companyId, id);
    return profile ? ok(profile) : fail(COMPANY_NOT_FOUND);
  };
}
