import { effectiveScopes } from "../access/permissions.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { forbidden, unauthorized } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { ApiKeyRepository, ApiKeySecrets, ApiKeyUsage } from "./ports.js";

/** One body for missing, malformed, unknown and revoked keys, so none can be told apart. */
export const INVALID_API_KEY = unauthorized("Invalid or missing API key");
export const NO_COMPANY_SELECTED = forbidden("No company selected");

/**
 * Turns a presented key (and an optional x-company-id) into the Actor. No cache: a revoked
 * key fails on its very next request, whichever server receives it.
 */
export class AuthenticateApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly tenancy: TenancyRepository,
    private readonly secrets: ApiKeySecrets,
    private readonly usage: ApiKeyUsage,
    private readonly clock: Clock,
  ) {}

  execute = async (presentedKey: string | undefined, requestedCompanyId?: string): Promise<Result<Actor>> => {
    const hash = presentedKey ? this.secrets.hashPresented(presentedKey) : null;
    if (!hash) return fail(INVALID_API_KEY);
    const record = await this.keys.findActiveByHash(hash);
    if (!record) return fail(INVALID_API_KEY);

    let member = record.member;
    if (requestedCompanyId && requestedCompanyId !== record.key.companyId) {
      const elsewhere = await this.tenancy.findMemberOfUser(requestedCompanyId, member.userId);
      if (!elsewhere) return fail(NO_COMPANY_SELECTED);
      member = elsewhere;
    }

    this.usage.recordUse(record.key, this.clock.now());
    return ok({
      companyId: member.companyId,
      memberId: member.id,
      userId: member.userId,
      role: member.role,
      scopes: new Set(effectiveScopes(record.key.selectedScopes, member.role)),
      apiKeyId: record.key.id,
      apiKeyPreset: record.key.preset,
    });
  };
}
