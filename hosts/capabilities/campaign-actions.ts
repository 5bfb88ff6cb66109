import { ContainerModule } from "inversify";
import { KnexCampaignGoalRepository } from "../../adapters/knex/repositories/campaign-goal-repository.js";
import { KnexCampaignShareLinkRepository } from "../../adapters/knex/repositories/campaign-share-link-repository.js";
import { CampaignShareLinkRepository, CampaignShareTokens } from "../../core/campaigns/campaign-share-link.js";
import { CreateCampaignGoal } from "../../core/campaigns/create-campaign-goal.js";
import { DeleteCampaignGoal } from "../../core/campaigns/delete-campaign-goal.js";
import { CampaignGoalRepository } from "../../core/campaigns/goals.js";
import { ListCampaignGoals } from "../../core/campaigns/list-campaign-goals.js";
import { CampaignAudienceQueries, CampaignRepository } from "../../core/campaigns/ports.js";
import { ResendToNonOpeners } from "../../core/campaigns/resend-to-non-openers.js";
import { SendCampaignTest } from "../../core/campaigns/send-campaign-test.js";
import { ShareCampaign } from "../../core/campaigns/share-campaign.js";
import { ShowSharedCampaign } from "../../core/campaigns/show-shared-campaign.js";
import { UnshareCampaign } from "../../core/campaigns/unshare-campaign.js";
import { UpdateCampaignGoal } from "../../core/campaigns/update-campaign-goal.js";
import { ProfileRepository } from "../../core/company/ports.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { MetricsQueries } from "../../core/metrics/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { RandomTokens } from "../../core/ports/random-tokens.js";
import { TokenSigner } from "../../core/ports/token-signer.js";
import { SegmentRepository } from "../../core/segments/ports.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { segmentDocsUrl } from "./segments.js";

/** What is done with a campaign beyond editing and scheduling it: test sends, share links, a resend to non-openers, goals. */
export const campaignActionsModule = new ContainerModule((container) => {
  bindClass(container, KnexCampaignShareLinkRepository, [Database]);
  container.bind<CampaignShareLinkRepository>(CampaignShareLinkRepository).toService(KnexCampaignShareLinkRepository);
  bindClass(container, CampaignShareTokens, [TokenSigner, BaseUrl]);
  bindClass(container, KnexCampaignGoalRepository, [Database]);
  container.bind<CampaignGoalRepository>(CampaignGoalRepository).toService(KnexCampaignGoalRepository);

  bindClass(container, SendCampaignTest, [
    CampaignRepository,
    SubscriberRepository,
    ProfileRepository,
    ResolveSender,
    TrackingSettingsRepository,
    RenderEmail,
    TrackingLinks,
    QueueEmailSend,
  ]);
  bindClass(container, ShareCampaign, [CampaignRepository, CampaignShareLinkRepository, CampaignShareTokens, RandomTokens, Clock]);
  bindClass(container, UnshareCampaign, [CampaignRepository, CampaignShareLinkRepository]);
  bindClass(container, ShowSharedCampaign, [CampaignShareTokens, CampaignShareLinkRepository, CampaignRepository, RenderEmail, Clock, BaseUrl]);
  bindFactory(
    container,
    ResendToNonOpeners,
    (
      campaigns: CampaignRepository,
      segments: SegmentRepository,
      audience: CampaignAudienceQueries,
      metrics: MetricsQueries,
      ids: IdGenerator,
      clock: Clock,
      baseUrl: string,
    ) => new ResendToNonOpeners(campaigns, segments, audience, metrics, ids, clock, segmentDocsUrl(baseUrl)),
    [CampaignRepository, SegmentRepository, CampaignAudienceQueries, MetricsQueries, IdGenerator, Clock, BaseUrl],
  );
  bindClass(container, ListCampaignGoals, [CampaignRepository, CampaignGoalRepository]);
  bindClass(container, CreateCampaignGoal, [CampaignRepository, CampaignGoalRepository, TrackingSettingsRepository, IdGenerator, Clock]);
  bindClass(container, UpdateCampaignGoal, [CampaignRepository, CampaignGoalRepository, Clock]);
  bindClass(container, DeleteCampaignGoal, [CampaignRepository, CampaignGoalRepository]);
});
