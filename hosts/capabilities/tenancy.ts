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
import { CreateOwnCompany } from "../../core/tenancy/create-own-company.js";
import { DescribeAccount } from "../../core/tenancy/describe-account.js";
import { GetCurrentCompany } from "../../core/tenancy/get-current-company.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import type { Logger } from "../logger.js";
import { AppLogger, Database } from "../tokens.js";

/** Companies, members and API keys: the repositories behind every authenticated request, and their use cases. */
export const tenancyModule = new ContainerModule((container) => {
  container.bind<ApiKeySecrets>(ApiKeySecrets).toConstantValue(new Sha256ApiKeySecrets());
  bindClass(container, KnexApiKeyRepository, [Database]);
  container.bind<ApiKeyRepository>(ApiKeyRepository).toService(KnexApiKeyRepository);
  bindFactory(container, TenancyRepository, (knex: Knex) => new KnexTenancyRepository(knex), [Database]);
  bindFactory(
    container,
    ApiKeyUsage,
    (keys: KnexApiKeyRepository, logger: Logger) => new ThrottledApiKeyUsage(keys, (error) => logger.warn({ err: error }, "could not record API key use")),
    [KnexApiKeyRepository, AppLogger],
  );

  bindClass(container, IssueApiKey, [ApiKeyRepository, ApiKeySecrets, IdGenerator, Clock]);
  bindClass(container, AuthenticateApiKey, [ApiKeyRepository, TenancyRepository, ApiKeySecrets, ApiKeyUsage, Clock]);
  bindClass(container, CreateApiKey, [TenancyRepository, IssueApiKey]);
  bindClass(container, ListApiKeys, [ApiKeyRepository]);
  bindClass(container, RevokeApiKey, [ApiKeyRepository, Clock]);
  bindClass(container, UpdateApiKey, [ApiKeyRepository, Clock]);
  bindClass(container, CreateCompany, [TenancyRepository, IssueApiKey, IdGenerator, Clock]);
  bindClass(container, CreateOwnCompany, [TenancyRepository, IdGenerator, Clock]);
  bindClass(container, CreateMemberApiKey, [TenancyRepository, IssueApiKey, IdGenerator, Clock]);
  bindClass(container, DescribeAccount, [TenancyRepository]);
  bindClass(container, GetCurrentCompany, [TenancyRepository]);
});
