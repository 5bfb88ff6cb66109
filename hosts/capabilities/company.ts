import { ContainerModule } from "inversify";
import { RsaDkimKeyGenerator } from "../../adapters/crypto/rsa-dkim-key-generator.js";
import { NodeDnsResolver } from "../../adapters/dns/node-dns-resolver.js";
import { KnexCompanyProfileRepository } from "../../adapters/knex/repositories/company-profile-repository.js";
import { KnexProfileRepository } from "../../adapters/knex/repositories/profile-repository.js";
import { KnexSendingDomainRepository } from "../../adapters/knex/repositories/sending-domain-repository.js";
import { CreateSendingDomain } from "../../core/company/create-sending-domain.js";
import { DeleteSenderProfile } from "../../core/company/delete-sender-profile.js";
import { DeleteSendingDomain } from "../../core/company/delete-sending-domain.js";
import { GetCompanyProfile } from "../../core/company/get-company-profile.js";
import { GetSendingDomain } from "../../core/company/get-sending-domain.js";
import { ListSenderProfiles } from "../../core/company/list-sender-profiles.js";
import { ListSendingDomains } from "../../core/company/list-sending-domains.js";
import { OperatorVerifyDomain } from "../../core/company/operator-verify-domain.js";
import { CompanyProfileRepository, DkimKeyGenerator, MailTargetsToken, ProfileRepository, SendingDomainRepository } from "../../core/company/ports.js";
import { RenameProfile } from "../../core/company/rename-profile.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { mailTargetsFor, type MailTargets } from "../../core/company/sending-domain.js";
import { SetUpOperatorSender } from "../../core/company/set-up-operator-sender.js";
import { UpdateCompanyProfile } from "../../core/company/update-company-profile.js";
import { VerifySendingDomain } from "../../core/company/verify-sending-domain.js";
import { Clock } from "../../core/ports/clock.js";
import { DnsResolver } from "../../core/ports/dns-resolver.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { resolverInForce } from "./resolver-in-force.js";

/**
 * Company profile, sender and reply profiles, sending domains and sender resolution. The DNS
 * records point under BASE_URL's host (`_spf.<host>`, `bounces.<host>`); the resolver asks the
 * system's DNS servers (tests rebind DnsResolver to one on loopback).
 */
export const companyModule = new ContainerModule((container) => {
  bindClass(container, KnexCompanyProfileRepository, [Database]);
  container.bind<CompanyProfileRepository>(CompanyProfileRepository).toService(KnexCompanyProfileRepository);
  bindClass(container, KnexProfileRepository, [Database]);
  container.bind<ProfileRepository>(ProfileRepository).toService(KnexProfileRepository);
  bindClass(container, KnexSendingDomainRepository, [Database]);
  container.bind<SendingDomainRepository>(SendingDomainRepository).toService(KnexSendingDomainRepository);
  container.bind<DkimKeyGenerator>(DkimKeyGenerator).toConstantValue(new RsaDkimKeyGenerator());
  bindFactory(container, DnsResolver, () => new NodeDnsResolver(), []);
  bindFactory(container, MailTargetsToken, (baseUrl: string) => mailTargetsFor(new URL(baseUrl).hostname), [BaseUrl]);

  bindClass(container, GetCompanyProfile, [CompanyProfileRepository, ProfileRepository]);
  bindClass(container, UpdateCompanyProfile, [CompanyProfileRepository, ProfileRepository, SendingDomainRepository, GetCompanyProfile, IdGenerator, Clock]);
  bindClass(container, ListSenderProfiles, [CompanyProfileRepository, ProfileRepository]);
  bindClass(container, RenameProfile, [CompanyProfileRepository, ProfileRepository, Clock]);
  bindClass(container, DeleteSenderProfile, [CompanyProfileRepository, ProfileRepository]);
  bindClass(container, CreateSendingDomain, [SendingDomainRepository, DkimKeyGenerator, SecretBox, IdGenerator, Clock, MailTargetsToken]);
  bindClass(container, ListSendingDomains, [SendingDomainRepository, MailTargetsToken]);
  bindClass(container, GetSendingDomain, [SendingDomainRepository, MailTargetsToken]);
  container
    .bind(VerifySendingDomain)
    .toDynamicValue(
      (context) =>
        new VerifySendingDomain(
          context.get<SendingDomainRepository>(SendingDomainRepository),
          resolverInForce(context),
          context.get<Clock>(Clock),
          context.get<MailTargets>(MailTargetsToken),
        ),
    );
  bindClass(container, DeleteSendingDomain, [SendingDomainRepository]);
  bindClass(container, OperatorVerifyDomain, [CompanyProfileRepository, SendingDomainRepository, DkimKeyGenerator, SecretBox, IdGenerator, Clock]);
  bindClass(container, SetUpOperatorSender, [CompanyProfileRepository, ProfileRepository, OperatorVerifyDomain, IdGenerator, Clock]);
  bindClass(container, ResolveSender, [CompanyProfileRepository, ProfileRepository, SendingDomainRepository]);
});
