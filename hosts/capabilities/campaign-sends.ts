import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexCampaignSendRepository } from "../../adapters/knex/repositories/campaign-send-repository.js";
import { PrepareCampaignMessage } from "../../core/campaigns/campaign-message.js";
import { FinishCampaignSend } from "../../core/campaigns/finish-campaign-send.js";
import { CampaignGoalRepository } from "../../core/campaigns/goals.js";
import { PauseCampaign } from "../../core/campaigns/pause-campaign.js";
import { CampaignAudienceQueries, CampaignRepository } from "../../core/campaigns/ports.js";
import { ResumeCampaign } from "../../core/campaigns/resume-campaign.js";
import { ScheduleNextOccurrence } from "../../core/campaigns/schedule-next-occurrence.js";
import { SendCampaignBatch } from "../../core/campaigns/send-campaign-batch.js";
import { FinishCampaignSendJob, SendCampaignBatchJob, StartCampaignSendJob, SWEEP_DUE_CAMPAIGNS_JOB } from "../../core/campaigns/send-jobs.js";
import { CampaignSendRepository, CampaignSendSettings } from "../../core/campaigns/send-ports.js";
import { StartCampaignSend } from "../../core/campaigns/start-campaign-send.js";
import { ProfileRepository } from "../../core/company/ports.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { EmailRenderer } from "../../core/emails/email-renderer.js";
import { EmailBrandingSource, EmailComponentRepository } from "../../core/emails/ports.js";
import { MetricsQueries } from "../../core/metrics/ports.js";
import { OptInRepository } from "../../core/opt-in/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SegmentRepository } from "../../core/segments/ports.js";
import { SuppressionRepository } from "../../core/suppressions/ports.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";
import { segmentDocsUrl } from "./segments.js";

/** The campaign send engine: scheduled campaigns start, their recipients go out in batches, pause and resume. */
export const campaignSendsModule = new ContainerModule((container) => {
  bindClass(container, KnexCampaignSendRepository, [Database, IdGenerator]);
  container.bind<CampaignSendRepository>(CampaignSendRepository).toService(KnexCampaignSendRepository);

  bindClass(container, PrepareCampaignMessage, [
    ResolveSender,
    ProfileRepository,
    TrackingSettingsRepository,
    EmailBrandingSource,
    EmailComponentRepository,
    EmailRenderer,
    TrackingLinks,
  ]);
  bindFactory(
    container,
    StartCampaignSend,
    (
      campaigns: CampaignRepository,
      sends: CampaignSendRepository,
      segments: SegmentRepository,
      audience: CampaignAudienceQueries,
      baseUrl: string,
      settings: CampaignSendSettings,
      clock: Clock,
    ) => new StartCampaignSend(campaigns, sends, { segments, audience }, segmentDocsUrl(baseUrl), settings, clock),
    [CampaignRepository, CampaignSendRepository, SegmentRepository, CampaignAudienceQueries, BaseUrl, CampaignSendSettings, Clock],
  );
  bindClass(container, SendCampaignBatch, [
    CampaignRepository,
    CampaignSendRepository,
    PrepareCampaignMessage,
    SuppressionRepository,
    OptInRepository,
    JobQueue,
    CampaignSendSettings,
    IdGenerator,
    Clock,
  ]);
  bindClass(container, ScheduleNextOccurrence, [CampaignRepository, CampaignGoalRepository, JobQueue, IdGenerator, Clock]);
  bindClass(container, FinishCampaignSend, [CampaignRepository, CampaignSendRepository, JobQueue, ScheduleNextOccurrence, Clock]);
  bindClass(container, PauseCampaign, [CampaignRepository, MetricsQueries, Clock]);
  bindClass(container, ResumeCampaign, [CampaignRepository, CampaignSendRepository, MetricsQueries, CampaignSendSettings, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(StartCampaignSendJob, (work) => container.get(StartCampaignSend).runJob(work));
  handlers.register(SendCampaignBatchJob, (work) => container.get(SendCampaignBatch).runJob(work));
  handlers.register(FinishCampaignSendJob, (work) => container.get(FinishCampaignSend).runJob(work));
  handlers.register(SWEEP_DUE_CAMPAIGNS_JOB, async () => {
    await container.get(StartCampaignSend).sweep();
  });
  handlers.schedule({ name: SWEEP_DUE_CAMPAIGNS_JOB, everyMs: 60_000, job: { type: SWEEP_DUE_CAMPAIGNS_JOB } });
  return handlers;
}
