import { ContainerModule } from "inversify";
import type { Knex } from "knex";
import { Sha256ApiKeySecrets } from "../../adapters/crypto/api-key-secrets.js";
import { KnexApiKeyRepository } from "../../adapters/knex/repositories/api-key-repository.js";
import { KnexTenancyRepository } from "../../adapters/knex/repositories/tenancy-repository.js";
import { ThrottledApiKeyUsage } from "../../adapters/knex/throttled-api-key-usage.js";
import { AuthenticateApiKey } from "../../core/api-keys/authenticate-api-key.js";
import { CreateApiKey } from "../../core/api-keys/create-api-key.js";
import { CreateMemberApiKey } from "../../core/api-keys/create-member-api-key.js";
import { IssueApiKey } from "../../core/api-keys/issue-api-key.js";
import { ListApiKeys } from "../../core/api-keys/list-api-keys.js";
import { ApiKeyRepository, ApiKeySecrets, ApiKeyUsage } from "../../core/api-keys/ports.js";
import { RevokeApiKey } from "../../core/api-keys/revoke-api-key.js";
import { UpdateApiKey } from "../../core/api-keys/update-api-key.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { CreateCompany } from "../../core/tenancy/create-company.js";
import { DescribeAccount } from "../../core/tenancy/describe-account.js";
import { GetCurrentCompany } from "../../core/tenancy/get-current-company.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { bindClass } from "../bind-class.js";
import type { Logger } from "../logger.js";
import { AppLogger, Database } from "../tokens.js";

/** Companies, members and API keys: the repositories behind every authenticated request, and their use cases. */
export const tenancyModule = new ContainerModule(({ bind }) => {
  bind<ApiKeySecrets>(ApiKeySecrets).toConstantValue(new Sha256ApiKeySecrets());
  bind(KnexApiKeyRepository).toResolvedValue((knex: Knex) => new KnexApiKeyRepository(knex), [Database]);
  bind<ApiKeyRepository>(ApiKeyRepository).toService(KnexApiKeyRepository);
  bind<TenancyRepository>(TenancyRepository).toResolvedValue((knex: Knex) => new KnexTenancyRepository(knex), [Database]);
  bind<ApiKeyUsage>(ApiKeyUsage).toResolvedValue(
    (keys: KnexApiKeyRepository, logger: Logger) => new ThrottledApiKeyUsage(keys, (error) => logger.warn({ err: error }, "could not record API key use")),
    [KnexApiKeyRepository, AppLogger],
  );

  bindClass(bind, IssueApiKey, [ApiKeyRepository, ApiKeySecrets, IdGenerator, Clock]);
  bindClass(bind, AuthenticateApiKey, [ApiKeyRepository, TenancyRepository, ApiKeySecrets, ApiKeyUsage, Clock]);
  bindClass(bind, CreateApiKey, [TenancyRepository, IssueApiKey]);
  bindClass(bind, ListApiKeys, [ApiKeyRepository]);
  bindClass(bind, RevokeApiKey, [ApiKeyRepository, Clock]);
  bindClass(bind, UpdateApiKey, [ApiKeyRepository, Clock]);
  bindClass(bind, CreateCompany, [TenancyRepository, IssueApiKey, IdGenerator, Clock]);
  bindClass(bind, CreateMemberApiKey, [TenancyRepository, IssueApiKey, IdGenerator, Clock]);
  bindClass(bind, DescribeAccount, [TenancyRepository]);
  bindClass(bind, GetCurrentCompany, [TenancyRepository]);
});
