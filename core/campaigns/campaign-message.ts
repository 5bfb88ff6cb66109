import type { ProfileRepository } from "../company/ports.js";
import type { ResolveSender } from "../company/resolve-sender.js";
import type { MailAddress } from "../delivery/model.js";
import type { EmailBlock } from "../emails/blocks.js";
import type { EmailRenderer, RenderedEmail } from "../emails/email-renderer.js";
import { contactVariables } from "../emails/merge-variables.js";
import { keepUnsubscribeEnabled, type EmailBody } from "../emails/model.js";
import type { EmailBranding, EmailBrandingSource, EmailComponentRepository } from "../emails/ports.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Subscriber } from "../subscribers/model.js";
import type { TrackingLinks } from "../tracking/tracking-links.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import type { Campaign } from "./model.js";
import { campaignVariables } from "./preview-campaign.js";

/**
 * A campaign's email made ready once for a whole batch: sender, Reply-To, tracking settings,
 * theme and footer are read once (the renderer keeps the parsed merge tags and compiled MJML
 * of what does not vary), so each recipient costs only its merge values and links.
 */
export class CampaignMessage {
  constructor(
    readonly campaign: Campaign,
    readonly sender: MailAddress,
    readonly replyTo: string | null,
    readonly openTracking: boolean,
    readonly clickTracking: boolean,
    private readonly branding: EmailBranding,
    private readonly footer: readonly EmailBlock[] | null,
    private readonly body: EmailBody,
    private readonly subject: string,
    private readonly renderer: EmailRenderer,
    private readonly tracking: TrackingLinks,
  ) {}

  /** The email of send `sendId` to `contact`: its merge values, tracking and unsubscribe links. */
  async renderFor(contact: Subscriber, sendId: string): Promise<Result<RenderedEmail & { readonly unsubscribeUrl: string }>> {
    const links = this.tracking.forSend(sendId);
    const rendered = await this.renderer.render({
      theme: this.branding.theme,
      companyName: this.branding.companyName,
      subject: this.subject,
      previewText: this.campaign.previewText,
      body: this.body,
      footer: this.footer,
      variables: campaignVariables(this.campaign, contactVariables(contact)),
      links: {
        unsubscribeUrl: links.unsubscribeUrl,
        ...(this.clickTracking ? { rewriteLink: links.rewriteLink } : {}),
        ...(this.openTracking ? { openPixelUrl: links.openPixelUrl } : {}),
      },
    });
    return rendered._tag === "Left" ? rendered : ok({ ...rendered.right, unsubscribeUrl: links.unsubscribeUrl });
  }
}

const NOTHING_TO_SEND = badRequest("The campaign has no subject or content to send");

/** Reads what every message of a campaign shares: who it is from, its theme, footer and tracking. */
export class PrepareCampaignMessage {
  constructor(
    private readonly resolveSender: ResolveSender,
    private readonly profiles: ProfileRepository,
    private readonly trackingSettings: TrackingSettingsRepository,
    private readonly branding: EmailBrandingSource,
    private readonly components: EmailComponentRepository,
    private readonly renderer: EmailRenderer,
    private readonly tracking: TrackingLinks,
  ) {}

  execute = async (campaign: Campaign): Promise<Result<CampaignMessage>> => {
    const { companyId, identity } = campaign;
    if (!campaign.subject || !campaign.body) return fail(NOTHING_TO_SEND);
    let requested: { email: string; name: string | null } | undefined;
    if (identity.fromEmail) requested = { email: identity.fromEmail, name: identity.fromName };
    else if (identity.senderProfileId) {
      const profile = await this.profiles.findSender(companyId, identity.senderProfileId);
      if (profile) requested = { email: profile.email, name: profile.name };
    }
    const sender = await this.resolveSender.execute(companyId, requested);
    if (sender._tag === "Left") return sender;
    let replyTo = identity.replyTo;
    if (!replyTo && identity.replyProfileId) replyTo = (await this.profiles.findReply(companyId, identity.replyProfileId))?.email ?? null;
    const branding = await this.branding.find(companyId);
    if (!branding) return fail(notFound("Company not found"));
    const footer = await this.components.findDefault(companyId, "footer");
    const settings = await this.trackingSettings.find(companyId);
    return ok(
      new CampaignMessage(
        campaign,
        { email: sender.right.from.email, name: sender.right.from.name },
        replyTo ?? sender.right.replyTo?.email ?? null,
        settings.openTrackingEnabled,
        settings.clickTrackingEnabled,
        branding,
        footer ? keepUnsubscribeEnabled(footer.blocks).blocks : null,
        campaign.body,
        campaign.subject,
        this.renderer,
        this.tracking,
      ),
    );
  };
}
