import type { Clock } from "../ports/clock.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { integrationNotFound } from "./errors.js";
import type { IntegrationRepository } from "./ports.js";
import { sealCredentials } from "./sealed-credentials.js";

export interface DisconnectedIntegration {
  readonly integrationId: string;
  readonly provider: string;
  readonly disconnected: true;
  readonly changed: boolean;
  readonly message: string;
}

/**
 * POST /integrations/{id}/disconnect: the integration stops (its webhooks are refused, its account
 * may connect to another workspace) and its credentials are erased. Its recorded events stay.
 */
export class DisconnectIntegration {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, integrationId: string): Promise<Result<DisconnectedIntegration>> => {
    const integration = await this.integrations.find(actor.companyId, integrationId);
    if (!integration) return fail(integrationNotFound());
    if (integration.isActive) {
      const erased = sealCredentials(this.box, integration.id, { apiKey: null, webhookSecret: "", historyImport: null });
      await this.integrations.update(actor.companyId, integration.id, { isActive: false, credentialsSealed: erased }, this.clock.now());
    }
    return ok({
      integrationId: integration.id,
      provider: integration.provider,
      disconnected: true,
      changed: integration.isActive,
      message: integration.isActive
        ? "Integration disconnected: its credentials are erased and its webhooks are refused"
        : "The integration was already disconnected",
    });
  };
}
