import { ContainerModule } from "inversify";
import { KnexWebTrackingKeyRepository } from "../../adapters/knex/repositories/web-tracking-key-repository.js";
import { RecordCustomEvent } from "../../core/events/record-custom-event.js";
import { ResolveEventContact } from "../../core/events/resolve-event-contact.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { RandomTokens } from "../../core/ports/random-tokens.js";
import { TokenSigner } from "../../core/ports/token-signer.js";
import { AdmitWebPage } from "../../core/web-tracking/admit-web-page.js";
import { CreateWebTrackingKey } from "../../core/web-tracking/create-web-tracking-key.js";
import { DeleteWebTrackingKey } from "../../core/web-tracking/delete-web-tracking-key.js";
import { GetWebTrackingKey } from "../../core/web-tracking/get-web-tracking-key.js";
import { IdentityTokens } from "../../core/web-tracking/identity-tokens.js";
import { ListWebTrackingKeys } from "../../core/web-tracking/list-web-tracking-keys.js";
import { MintWebIdentity } from "../../core/web-tracking/mint-web-identity.js";
import { WebTrackingKeyRepository } from "../../core/web-tracking/ports.js";
import { RecordWebEvents } from "../../core/web-tracking/record-web-events.js";
import { UpdateWebTrackingKey } from "../../core/web-tracking/update-web-tracking-key.js";
import { bindClass } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";

/** Web tracking: publishable keys, identity tokens, and the events of the browser tracking script. */
export const webTrackingModule = new ContainerModule((container) => {
  bindClass(container, KnexWebTrackingKeyRepository, [Database]);
  container.bind<WebTrackingKeyRepository>(WebTrackingKeyRepository).toService(KnexWebTrackingKeyRepository);
  bindClass(container, IdentityTokens, [TokenSigner]);
  bindClass(container, CreateWebTrackingKey, [WebTrackingKeyRepository, IdGenerator, RandomTokens, Clock, BaseUrl]);
  bindClass(container, ListWebTrackingKeys, [WebTrackingKeyRepository, BaseUrl]);
  bindClass(container, GetWebTrackingKey, [WebTrackingKeyRepository, BaseUrl]);
  bindClass(container, UpdateWebTrackingKey, [WebTrackingKeyRepository, Clock, BaseUrl]);
  bindClass(container, DeleteWebTrackingKey, [WebTrackingKeyRepository]);
  bindClass(container, MintWebIdentity, [WebTrackingKeyRepository, ResolveEventContact, IdentityTokens, Clock]);
  bindClass(container, AdmitWebPage, [WebTrackingKeyRepository]);
  bindClass(container, RecordWebEvents, [WebTrackingKeyRepository, IdentityTokens, ResolveEventContact, RecordCustomEvent, Clock]);
});
