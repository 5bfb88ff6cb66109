import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { ContainerModule } from "inversify";
import type { Knex } from "knex";
import { KnexEngagementRepository } from "../../adapters/knex/repositories/engagement-repository.js";
import { KnexSuppressionRepository } from "../../adapters/knex/repositories/suppression-repository.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { TokenSigner } from "../../core/ports/token-signer.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { UpdateSubscriber } from "../../core/subscribers/update-subscriber.js";
import { SuppressionRepository } from "../../core/suppressions/ports.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { EngagementRepository } from "../../core/tracking/ports.js";
import { RecordClick } from "../../core/tracking/record-click.js";
import { RecordOpen } from "../../core/tracking/record-open.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { TrackingTokens } from "../../core/tracking/tracking-tokens.js";
import { ShowUnsubscribePage } from "../../core/tracking/unsubscribe-page.js";
import { UnsubscribeRecipient } from "../../core/tracking/unsubscribe-recipient.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";

/** Open and click tracking, unsubscribe links, and the suppression list they feed. */
export const trackingModule = new ContainerModule((container) => {
  // Delivery binds the same repository when it comes first: one binding either way.
  if (!container.isBound(SuppressionRepository)) {
    bindFactory(container, SuppressionRepository, (knex: Knex, ids: IdGenerator) => new KnexSuppressionRepository(knex, ids), [Database, IdGenerator]);
  }
  bindClass(container, KnexEngagementRepository, [Database, KnexWebhookPublisher]);
  container.bind<EngagementRepository>(EngagementRepository).toService(KnexEngagementRepository);

  bindClass(container, TrackingTokens, [TokenSigner]);
  bindClass(container, TrackingLinks, [TrackingTokens, BaseUrl]);
  bindClass(container, RecordOpen, [TrackingTokens, EngagementRepository, IdGenerator, Clock]);
  bindClass(container, RecordClick, [TrackingTokens, EngagementRepository, IdGenerator, Clock]);
  bindClass(container, ShowUnsubscribePage, [TrackingTokens, EngagementRepository, TenancyRepository, Clock]);
  bindClass(container, UnsubscribeRecipient, [
    TrackingTokens,
    EngagementRepository,
    TenancyRepository,
    SuppressionRepository,
    SubscriberRepository,
    UpdateSubscriber,
    IdGenerator,
    Clock,
  ]);
});
