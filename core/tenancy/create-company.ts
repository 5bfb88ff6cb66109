import type { IssueApiKey } from "../api-keys/issue-api-key.js";
import type { ApiKeyRecord } from "../api-keys/model.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { OperatorActor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { CreateCompanyCommand } from "./commands.js";
import type { Company, TeamMember } from "./model.js";
import type { TenancyRepository } from "./ports.js";

export interface CreatedCompany {
  readonly company: Company;
  readonly owner: TeamMember;
  readonly apiKey: ApiKeyRecord;
  /** The plain owner key, shown once. */
  readonly plainKey: string;
}

/** Operator bootstrap: a company, its owner, and an owner key with full access. */
export class CreateCompany {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly issuer: IssueApiKey,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (_operator: OperatorActor, input: CreateCompanyCommand): Promise<Result<CreatedCompany>> => {
    const now = this.clock.now();
    const company: Company = { id: this.ids.next("co"), name: input.name, websiteUrl: null, createdAt: now };
    const owner = await this.tenancy.createCompany(company, {
      id: this.ids.next("mem"),
      companyId: company.id,
      role: "owner",
      createdAt: now,
      user: { id: this.ids.next("usr"), email: input.ownerEmail, name: input.ownerName ?? null, createdAt: now },
    });
    const { record, plain } = await this.issuer.issue(owner, "Owner key", { preset: "full_access", selectedScopes: null });
    return ok({ company, owner, apiKey: record, plainKey: plain });
  };
}
