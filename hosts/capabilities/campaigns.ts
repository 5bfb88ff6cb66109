import { ContainerModule } from "inversify";
import { KnexCampaignAudienceQueries } from "../../adapters/knex/repositories/campaign-audience-queries.js";
import { KnexCampaignRepository } from "../../adapters/knex/repositories/campaign-repository.js";
import type { EditDependencies } from "../../core/campaigns/campaign-edits.js";
import { CampaignShareLinkRepository, CampaignShareTokens } from "../../core/campaigns/campaign-share-link.js";
import { CancelCampaign } from "../../core/campaigns/cancel-campaign.js";
import { CreateCampaign } from "../../core/campaigns/create-campaign.js";
import { DeleteCampaign } from "../../core/campaigns/delete-campaign.js";
import { DuplicateCampaign } from "../../core/campaigns/duplicate-campaign.js";
import { GetCampaign } from "../../core/campaigns/get-campaign.js";
import { GetCampaignAudience } from "../../core/campaigns/get-campaign-audience.js";
import { ListCampaigns } from "../../core/campaigns/list-campaigns.js";
import { CampaignAudienceQueries, CampaignRepository } from "../../core/campaigns/ports.js";
import { PreviewCampaign } from "../../core/campaigns/preview-campaign.js";
import { PreviewComputedData } from "../../core/campaigns/preview-computed-data.js";
import { ScheduleCampaign } from "../../core/campaigns/schedule-campaign.js";
import { UnscheduleCampaign } from "../../core/campaigns/unschedule-campaign.js";
import { UpdateCampaign } from "../../core/campaigns/update-campaign.js";
import { ProfileRepository } from "../../core/company/ports.js";
import { TemplateRepository } from "../../core/emails/ports.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { MetricsQueries } from "../../core/metrics/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SegmentRepository } from "../../core/segments/ports.js";
import { token } from "../../core/shared/token.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { segmentDocsUrl } from "./segments.js";

const CampaignEdits = token<EditDependencies>("lifecycle.CampaignEdits");
const CampaignDocsUrl = token<string>("lifecycle.CampaignDocsUrl");

/** Campaigns: their content, audience and states (the send engine is campaign-sends.ts). */
export const campaignsModule = new ContainerModule((container) => {
  bindClass(container, KnexCampaignRepository, [Database]);
  container.bind<CampaignRepository>(CampaignRepository).toService(KnexCampaignRepository);
  bindClass(container, KnexCampaignAudienceQueries, [Database]);
  container.bind<CampaignAudienceQueries>(CampaignAudienceQueries).toService(KnexCampaignAudienceQueries);

  bindFactory(container, CampaignDocsUrl, (baseUrl: string) => segmentDocsUrl(baseUrl), [BaseUrl]);
  bindFactory(
    container,
    CampaignEdits,
    (profiles: ProfileRepository, segments: SegmentRepository, audience: CampaignAudienceQueries, docsUrl: string) => ({
      profiles,
      segments,
      audience,
      docsUrl,
    }),
    [ProfileRepository, SegmentRepository, CampaignAudienceQueries, CampaignDocsUrl],
  );
  bindClass(container, ListCampaigns, [CampaignRepository]);
  bindClass(container, GetCampaign, [CampaignRepository, MetricsQueries, CampaignShareLinkRepository, CampaignShareTokens]);
  bindClass(container, CreateCampaign, [CampaignRepository, TemplateRepository, CampaignEdits, MetricsQueries, IdGenerator, Clock]);
  bindClass(container, UpdateCampaign, [CampaignRepository, CampaignEdits, MetricsQueries, Clock]);
  bindClass(container, DeleteCampaign, [CampaignRepository]);
  bindClass(container, DuplicateCampaign, [CampaignRepository, MetricsQueries, IdGenerator, Clock]);
  bindClass(container, GetCampaignAudience, [CampaignRepository, SegmentRepository, CampaignAudienceQueries, Clock, CampaignDocsUrl]);
  bindClass(container, PreviewCampaign, [CampaignRepository, SubscriberRepository, RenderEmail, BaseUrl]);
  bindClass(container, PreviewComputedData, [CampaignRepository, SubscriberRepository]);
  bindClass(container, ScheduleCampaign, [CampaignRepository, CampaignEdits, MetricsQueries, JobQueue, Clock]);
  bindClass(container, UnscheduleCampaign, [CampaignRepository, MetricsQueries, Clock]);
  bindClass(container, CancelCampaign, [CampaignRepository, MetricsQueries, Clock]);
});
