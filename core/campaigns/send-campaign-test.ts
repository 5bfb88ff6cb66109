import type { ProfileRepository } from "../company/ports.js";
import type { ResolveSender } from "../company/resolve-sender.js";
import type { QueueEmailSend } from "../delivery/queue-email-send.js";
import { contactVariables } from "../emails/merge-variables.js";
import type { RenderEmail } from "../emails/render-email.js";
import { mailboxProviderOf } from "../metrics/mailbox-provider.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { TrackingLinks } from "../tracking/tracking-links.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import { campaignMailboxes } from "./campaign-mailboxes.js";
import type { SendCampaignTestCommand } from "./commands.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { campaignVariables, NOTHING_TO_RENDER } from "./preview-campaign.js";

export interface CampaignTestSend {
  readonly emailSendId: string;
  readonly recipientEmail: string;
}

/**
 * POST /campaigns/{id}/test: the campaign, in any state, sent once to one address through the
 * email pipeline as a recipient would get it (From, Reply-To, theme, footer, tracking; merge
 * tags from the contact of that address when there is one, then campaignData). The send is
 * marked as a test (`is_test`), so no metric, campaign stats or segment counts it; delivery
 * applies suppressions and sending pauses to it as to any campaign send.
 */
export class SendCampaignTest {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly profiles: ProfileRepository,
    private readonly resolveSender: ResolveSender,
    private readonly trackingSettings: TrackingSettingsRepository,
    private readonly render: RenderEmail,
    private readonly tracking: TrackingLinks,
    private readonly queue: QueueEmailSend,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: SendCampaignTestCommand): Promise<Result<CampaignTestSend>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    if (!campaign.subject || !campaign.body) return fail(NOTHING_TO_RENDER);
    const requested = await campaignMailboxes(this.profiles, campaign);
    const sender = await this.resolveSender.execute(actor.companyId, requested.from);
    if (sender._tag === "Left") return sender;

    const contact = await this.subscribers.findByEmail(actor.companyId, input.to);
    const settings = await this.trackingSettings.find(actor.companyId);
    const emailSendId = this.queue.newSendId();
    const links = this.tracking.forSend(emailSendId);
    const rendered = await this.render.execute(actor.companyId, {
      content: { subject: campaign.subject, previewText: campaign.previewText, body: campaign.body },
      variables: campaignVariables(campaign, contactVariables(contact ?? { email: input.to })),
      links: {
        unsubscribeUrl: links.unsubscribeUrl,
        ...(settings.clickTrackingEnabled ? { rewriteLink: links.rewriteLink } : {}),
        ...(settings.openTrackingEnabled ? { openPixelUrl: links.openPixelUrl } : {}),
      },
    });
    if (rendered._tag === "Left") return rendered;
    const queued = await this.queue.execute({
      id: emailSendId,
      companyId: actor.companyId,
      subscriberId: contact?.id ?? null,
      recipient: input.to,
      emailType: "campaign",
      campaignId: campaign.id,
      subject: rendered.right.subject,
      html: rendered.right.html,
      text: rendered.right.text,
      sender: { email: sender.right.from.email, name: sender.right.from.name },
      replyTo: requested.replyTo ?? sender.right.replyTo?.email ?? null,
      unsubscribeUrl: links.unsubscribeUrl,
      mailboxProvider: mailboxProviderOf(input.to),
      isTest: true,
      openTracking: settings.openTrackingEnabled,
      clickTracking: settings.clickTrackingEnabled,
    });
    if (queued._tag === "Left") return queued;
    return ok({ emailSendId: queued.right.id, recipientEmail: queued.right.recipientEmail });
  };
}
