import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { ConnectIntegrationCommand } from "./commands.js";
import { checkConnect } from "./connect-rules.js";
import { isPaymentProvider, type Integration, type IntegrationSettings } from "./model.js";
import type { IntegrationRepository, ProviderApis } from "./ports.js";
import type { QueueSync } from "./queue-sync.js";
import { sealCredentials } from "./sealed-credentials.js";
import { toIntegrationView, type IntegrationView } from "./view.js";
import { integrationWebhookUrl } from "./webhook-url.js";

export interface ConnectedIntegration {
  readonly integration: IntegrationView;
  readonly webhookUrl: string;
  readonly revenueSyncQueued?: boolean;
  readonly backfillQueued?: boolean;
  readonly history?: { readonly requested: boolean; readonly queued: boolean; readonly error: string | null };
}

const alreadyConnected = (name: string) => conflict(`This ${name} account is already connected to another workspace`);

/**
 * POST /integrations/connect: checks the spec's rules, validates the credentials against the
 * provider where it offers a check, refuses an account another workspace holds (409), then saves
 * the integration with its credentials sealed (reconnecting replaces them) and queues what the
 * provider brings: the revenue sync, the affiliate backfill or the analytics history import.
 */
export class ConnectIntegration {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly apis: ProviderApis,
    private readonly queueSync: QueueSync,
    private readonly box: SecretBox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, command: ConnectIntegrationCommand): Promise<Result<ConnectedIntegration>> => {
    const checked = checkConnect(command);
    if (checked._tag === "Left") return checked;
    const { entry, credentials } = checked.right;
    const { provider } = entry;

    const verified = await this.apis.verify(provider, credentials, checked.right.providerAccountId);
    if (verified._tag === "Left") return verified;
    const { providerAccountId } = verified.right;
    const holder = await this.integrations.accountHolder(provider, providerAccountId);
    if (holder !== null && holder !== actor.companyId) return fail(alreadyConnected(entry.name));

    const now = this.clock.now();
    const existing = await this.integrations.findByProvider(actor.companyId, provider);
    const name = command.name ?? verified.right.name ?? entry.name;
    const settings: IntegrationSettings = {
      listIds: existing?.settings.listIds ?? null,
      ...(entry.category === "analytics"
        ? {
            syncAllEvents: command.settings?.syncAllEvents ?? existing?.settings.syncAllEvents ?? true,
            eventAllowlist: command.settings?.eventAllowlist ?? existing?.settings.eventAllowlist ?? [],
          }
        : {}),
    };
    let integration: Integration;
    if (existing) {
      const updated = await this.integrations.update(
        actor.companyId,
        existing.id,
        {
          name,
          providerAccountId,
          isActive: true,
          credentialsSealed: sealCredentials(this.box, existing.id, credentials),
          settings,
          ...(existing.isActive ? {} : { connectedAt: now }),
        },
        now,
      );
      if (updated === false) return fail(alreadyConnected(entry.name));
      if (updated === null) return this.execute(actor, command);
      integration = updated;
    } else {
      const id = this.ids.next("int");
      integration = {
        id,
        companyId: actor.companyId,
        provider,
        name,
        providerAccountId,
        isActive: true,
        syncEnabled: true,
        syncStatus: null,
        credentialsSealed: sealCredentials(this.box, id, credentials),
        settings,
        syncState: null,
        lastSyncAt: null,
        lastSyncError: null,
        connectedAt: now,
        updatedAt: now,
      };
      if (!(await this.integrations.insert(integration))) return fail(alreadyConnected(entry.name));
    }

    const webhookUrl = integrationWebhookUrl(this.baseUrl, provider, actor.companyId);
    const base = { webhookUrl };
    if (isPaymentProvider(provider)) {
      const queued = integration.syncEnabled ? await this.queueSync.execute(integration, "revenue") : { queued: false };
      return ok(await this.answer(integration, { ...base, revenueSyncQueued: queued.queued }));
    }
    if (entry.category === "affiliate") {
      const queued = integration.syncEnabled ? await this.queueSync.execute(integration, "backfill") : { queued: false };
      return ok(await this.answer(integration, { ...base, backfillQueued: queued.queued }));
    }
    if (entry.category === "analytics") {
      if (!credentials.historyImport) return ok(await this.answer(integration, { ...base, history: { requested: false, queued: false, error: null } }));
      // The connection stands even when the import cannot be queued (spec).
      try {
        const queued = await this.queueSync.execute(integration, "history");
        const error = queued.queued ? null : queued.reason === "running" ? "A history import is already running" : "History import is not available";
        return ok(await this.answer(integration, { ...base, history: { requested: true, queued: queued.queued, error } }));
      } catch (error) {
        const message = `The history import could not be queued: ${error instanceof Error ? error.message : String(error)}`;
        return ok(await this.answer(integration, { ...base, history: { requested: true, queued: false, error: message } }));
      }
    }
    return ok(await this.answer(integration, base));
  };

  /** The integration as it is after any sync was queued. */
  private async answer(integration: Integration, rest: Omit<ConnectedIntegration, "integration">): Promise<ConnectedIntegration> {
    const current = (await this.integrations.find(integration.companyId, integration.id)) ?? integration;
    return { integration: toIntegrationView(current), ...rest };
  }
}
