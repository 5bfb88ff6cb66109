import type { ListRepository } from "../lists/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateIntegrationCommand } from "./commands.js";
import { integrationNotFound } from "./errors.js";
import { listTargetingOf, type ListTargeting } from "./model.js";
import type { IntegrationChanges, IntegrationRepository } from "./ports.js";

export interface UpdatedIntegration {
  readonly integrationId: string;
  readonly provider: string;
  readonly syncEnabled: boolean;
  readonly listTargeting: ListTargeting;
  readonly listIds: string[];
  readonly changed: boolean;
  readonly changedFields: string[];
  readonly message: string;
}

const sameLists = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * PATCH /integrations/{id} (compat-reference §23): `syncEnabled` (off: webhooks are still
 * recorded but not applied, and no sync runs), and `listIds`, the lists contacts the integration
 * brings join (a list: those; []: none; null: the company default). Every list must be the company's.
 */
export class UpdateIntegration {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly lists: ListRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, integrationId: string, command: UpdateIntegrationCommand): Promise<Result<UpdatedIntegration>> => {
    if (command.syncEnabled === undefined && command.listIds === undefined) return fail(badRequest("Provide syncEnabled or listIds"));
    const integration = await this.integrations.find(actor.companyId, integrationId);
    if (!integration) return fail(integrationNotFound());
    const listIds = command.listIds === undefined ? integration.settings.listIds : command.listIds === null ? null : [...new Set(command.listIds)];
    for (const listId of listIds ?? []) if (!(await this.lists.find(actor.companyId, listId))) return fail(notFound(`List not found: ${listId}`));

    const syncEnabled = command.syncEnabled ?? integration.syncEnabled;
    const changedFields = [
      ...(syncEnabled !== integration.syncEnabled ? ["syncEnabled"] : []),
      ...(!sameLists(listIds, integration.settings.listIds) ? ["listIds"] : []),
    ];
    if (changedFields.length > 0) {
      const changes: IntegrationChanges = { syncEnabled, settings: { ...integration.settings, listIds } };
      if (!(await this.integrations.update(actor.companyId, integration.id, changes, this.clock.now()))) return fail(integrationNotFound());
    }
    const targeting = listTargetingOf(listIds);
    return ok({
      integrationId: integration.id,
      provider: integration.provider,
      syncEnabled,
      listTargeting: targeting,
      listIds: [...(listIds ?? [])],
      changed: changedFields.length > 0,
      changedFields,
      message:
        changedFields.length === 0
          ? "Nothing changed"
          : `Updated ${changedFields.join(" and ")}: ${syncEnabled ? "events are applied" : "events are recorded but not applied"}; new contacts ${
              targeting === "specific" ? `join ${listIds!.length} list(s)` : targeting === "none" ? "join no list" : "follow the company default"
            }`,
    });
  };
}
