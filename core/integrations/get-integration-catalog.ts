import { ok, type Result } from "../shared/result.js";
import { PROVIDER_CATALOG } from "./catalog.js";
import type { CatalogQuery } from "./commands.js";
import { toProviderView, type ProviderView } from "./view.js";

/** GET /integrations/catalog: the providers that connect with credentials, filtered by provider or category. */
export class GetIntegrationCatalog {
  execute = async (query: CatalogQuery): Promise<Result<ProviderView[]>> =>
    ok(
      PROVIDER_CATALOG.filter(
        (entry) => (!query.provider || entry.provider === query.provider.toLowerCase()) && (!query.category || entry.category === query.category),
      ).map(toProviderView),
    );
}
