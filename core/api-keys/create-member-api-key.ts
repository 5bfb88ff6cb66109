import * as t from "io-ts";
import { roleCeiling } from "../access/role-ceilings.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { OperatorActor } from "../shared/actor.js";
import { Email, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { fail, isLeft, ok, type Result } from "../shared/result.js";
import { RoleCodec } from "../tenancy/commands.js";
import type { TeamMember } from "../tenancy/model.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { KeyName, ScopeList } from "./commands.js";
import type { IssueApiKey } from "./issue-api-key.js";
import { resolveSelection } from "./key-selection.js";
import type { ApiKeyRecord } from "./model.js";

export const CreateMemberApiKeyCommand = t.exact(
  t.intersection([
    t.type({ companyId: TrimmedNonEmpty }),
    t.partial({ role: optional(RoleCodec), email: optional(Email), scopes: optional(ScopeList), name: optional(KeyName) }),
  ]),
  "CreateMemberApiKeyCommand",
);
export type CreateMemberApiKeyCommand = t.TypeOf<typeof CreateMemberApiKeyCommand>;

export interface CreatedMemberApiKey {
  readonly apiKey: ApiKeyRecord;
  readonly plainKey: string;
}

/**
 * Operator bootstrap of a key acting as a member of some role. A new email becomes a member
 * with that role; without an email the company's oldest member of that role is used.
 * Without scopes the key holds everything the role allows.
 */
export class CreateMemberApiKey {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly issuer: IssueApiKey,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (_operator: OperatorActor, input: CreateMemberApiKeyCommand): Promise<Result<CreatedMemberApiKey>> => {
    const company = await this.tenancy.findCompany(input.companyId);
    if (!company) return fail(notFound(`Company not found: ${input.companyId}`));
    const role = input.role ?? "owner";

    const member = await this.memberFor(company.id, role, input.email, input.role !== undefined);
    if (isLeft(member)) return member;

    const ceiling = roleCeiling(member.right.role);
    const beyond = (input.scopes ?? []).filter((scope) => !ceiling.has(scope));
    if (beyond.length > 0) return fail(badRequest(`Role ${member.right.role} cannot hold scope: ${beyond.join(", ")}`));

    const selection = resolveSelection({ scopes: input.scopes });
    if (isLeft(selection)) return selection;
    const { record, plain } = await this.issuer.issue(member.right, input.name ?? `${member.right.role} key`, selection.right);
    return ok({ apiKey: record, plainKey: plain });
  };

  private async memberFor(companyId: string, role: TeamMember["role"], email: string | undefined, roleGiven: boolean): Promise<Result<TeamMember>> {
    if (!email) {
      const first = await this.tenancy.findFirstMemberWithRole(companyId, role);
      return first ? ok(first) : fail(badRequest(`Company ${companyId} has no ${role} member; give --email to add one`));
    }
    const existing = await this.tenancy.findMemberByEmail(companyId, email);
    if (existing) {
      return roleGiven && existing.role !== role
        ? fail(conflict(`${email} is already a member of company ${companyId} with role ${existing.role}`))
        : ok(existing);
    }
    const now = this.clock.now();
    return ok(
      await this.tenancy.addMember({
        id: this.ids.next("mem"),
        companyId,
        role,
        createdAt: now,
        user: { id: this.ids.next("usr"), email, name: null, createdAt: now },
      }),
    );
  }
}
