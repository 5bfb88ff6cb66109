import type { Integration, IntegrationCredentials, SyncKind } from "../../core/integrations/model.js";
import type { SyncPage, VerifiedAccount } from "../../core/integrations/ports.js";
import type { Result } from "../../core/shared/result.js";

/** One provider's API: the credential check, its sync (if implemented) and customer lookups. */
export interface ProviderApi {
  verify(credentials: IntegrationCredentials, accountId: string | null): Promise<Result<VerifiedAccount>>;
  readonly sync?: {
    readonly kind: SyncKind;
    /** `integration` gives the account and the settings. */
    page(credentials: IntegrationCredentials, integration: Integration, cursor: string | null): Promise<SyncPage>;
  };
  customerEmail?(credentials: IntegrationCredentials, customerId: string): Promise<string | null>;
}
