import type { Integration, IntegrationCredentials, Provider, SyncKind } from "../../core/integrations/model.js";
import type { ProviderApis as ProviderApisPort, SyncPage, VerifiedAccount } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import type { Result } from "../../core/shared/result.js";
import { affonsoApi } from "./affonso-api.js";
import { chargebeeApi } from "./chargebee-api.js";
import { clerkApi } from "./clerk-api.js";
import { creemApi } from "./creem-api.js";
import { dodoApi } from "./dodo-api.js";
import { paddleApi } from "./paddle-api.js";
import { polarApi } from "./polar-api.js";
import { posthogApi } from "./posthog-api.js";
import type { ProviderApi } from "./provider-api.js";
import { whopApi } from "./whop-api.js";

/** Every provider's API over one outbound HTTP client; every URL is built from a provider's fixed origin. */
export class HttpProviderApis implements ProviderApisPort {
  private readonly apis: Readonly<Record<Provider, ProviderApi>>;

  constructor(http: HttpClient) {
    this.apis = {
      polar: polarApi(http),
      paddle: paddleApi(http),
      dodo: dodoApi(http),
      whop: whopApi(http),
      creem: creemApi(http),
      chargebee: chargebeeApi(http),
      clerk: clerkApi,
      posthog: posthogApi(http),
      affonso: affonsoApi(http),
    };
  }

  verify(provider: Provider, credentials: IntegrationCredentials, accountId: string | null): Promise<Result<VerifiedAccount>> {
    return this.apis[provider].verify(credentials, accountId);
  }

  supportsSync(provider: Provider, kind: SyncKind): boolean {
    return this.apis[provider].sync?.kind === kind;
  }

  syncPage(integration: Integration, kind: SyncKind, credentials: IntegrationCredentials, cursor: string | null): Promise<SyncPage> {
    const sync = this.apis[integration.provider].sync;
    if (!sync || sync.kind !== kind) throw new Error(`${integration.provider} has no ${kind} sync`);
    return sync.page(credentials, integration, cursor);
  }

  async customerEmail(provider: Provider, credentials: IntegrationCredentials, customerId: string): Promise<string | null> {
    const api = this.apis[provider];
    return api.customerEmail ? api.customerEmail(credentials, customerId) : null;
  }
}
