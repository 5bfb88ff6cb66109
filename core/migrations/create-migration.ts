import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, invalid, type DomainError } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { toResourceOptions, type CreateMigrationCommand } from "./commands.js";
import { approve, newRun, NO_PLAN, type ApprovedPlan, type Discovery, type SourceConfig } from "./model.js";
import { SourceError, type MigrationRunRepository, type MigrationSources } from "./ports.js";
import { sealSource } from "./sealed-source.js";
import { toMigrationRunView, type MigrationRunView } from "./view.js";

export const BASE_URL_NOT_ALLOWED =
  "baseUrl is accepted only when the server allows private destinations (ALLOW_PRIVATE_DESTINATIONS=true, for local testing); leave it out to use the provider's API";

const requiredFor = (field: string, provider: string): DomainError =>
  invalid(`Invalid request: ${field} is required for provider ${provider}`, [{ path: field, message: `is required for provider ${provider}` }]);

/** The source a source failure met, as the customer's 400: the credentials, the connection or the input. */
export function sourceFailure(error: SourceError): DomainError {
  const code = error.reason === "credentials" ? "invalid_credentials" : error.reason === "unavailable" ? "connection_failed" : "invalid_input";
  return badRequest(error.message, { code });
}

/**
 * POST /migrations: connects to the source with the credentials given, discovers its resources
 * and saves the run `awaiting_approval` (nothing is imported yet). The credentials (or the CSV)
 * are sealed with the run's ID and never returned. `resourceIds` may approve a selection at once,
 * so that a later start needs no body.
 */
export class CreateMigration {
  constructor(
    private readonly runs: MigrationRunRepository,
    private readonly sources: MigrationSources,
    private readonly box: SecretBox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** ALLOW_PRIVATE_DESTINATIONS: a provider's base URL may be overridden (tests against a local server). */
    private readonly allowPrivateDestinations: boolean,
  ) {}

  execute = async (actor: Actor, command: CreateMigrationCommand): Promise<Result<MigrationRunView>> => {
    const config = this.configOf(command);
    if (config._tag === "Left") return config;

    let discovery: Discovery;
    try {
      const resources = await this.sources.connect(config.right).discover();
      discovery = { provider: config.right.provider, resources };
    } catch (error) {
      if (error instanceof SourceError) return fail(sourceFailure(error));
      throw error;
    }

    const now = this.clock.now();
    let plan: ApprovedPlan = NO_PLAN;
    if (command.resourceIds?.length) {
      const approved = approve(discovery, command.resourceIds, toResourceOptions(command.resourceOptions), now);
      if (approved._tag === "Left") return approved;
      plan = approved.right;
    }
    const run = newRun(this.ids.next("mig"), actor.companyId, discovery, plan, now);
    await this.runs.insert(run, sealSource(this.box, run.id, config.right));
    return ok(toMigrationRunView(run));
  };

  private configOf(command: CreateMigrationCommand): Result<SourceConfig> {
    switch (command.provider) {
      case "csv":
        return command.csv === undefined ? fail(requiredFor("csv", "csv")) : ok({ provider: "csv", csv: command.csv });
      case "mailchimp":
        if (command.apiKey === undefined) return fail(requiredFor("apiKey", "mailchimp"));
        if (command.baseUrl !== undefined && !this.allowPrivateDestinations) return fail(badRequest(BASE_URL_NOT_ALLOWED));
        return ok({ provider: "mailchimp", apiKey: command.apiKey, baseUrl: command.baseUrl ?? null });
    }
  }
}
