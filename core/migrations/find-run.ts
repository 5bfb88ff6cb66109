import type { Actor } from "../shared/actor.js";
import { forbidden, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { MigrationRun } from "./model.js";
import type { MigrationRunRepository } from "./ports.js";

export const RUN_NOT_FOUND = () => notFound("Migration run not found");
export const RUN_ACCESS_DENIED = () => forbidden("Access denied to the migration run");

/**
 * The run the actor names, in the company the request acts for. A run of another company the
 * actor's user also belongs to is 403 'Access denied to the migration run' (the user may see it
 * by selecting that company with x-company-id, so its existence is no secret to them); a run
 * of any other company is 404, as if it did not exist.
 */
export async function findRun(runs: MigrationRunRepository, tenancy: TenancyRepository, actor: Actor, runId: string): Promise<Result<MigrationRun>> {
  const run = await runs.find(actor.companyId, runId);
  if (run) return ok(run);
  const memberships = await tenancy.listMemberships(actor.userId);
  const otherCompanies = memberships.map((membership) => membership.company.id).filter((id) => id !== actor.companyId);
  if (otherCompanies.length > 0 && (await runs.findOwner(otherCompanies, runId))) return fail(RUN_ACCESS_DENIED());
  return fail(RUN_NOT_FOUND());
}
