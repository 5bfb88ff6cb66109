import * as t from "io-ts";
import { CancelCampaign } from "../../../core/campaigns/cancel-campaign.js";
import { PauseCampaign } from "../../../core/campaigns/pause-campaign.js";
import { ResumeCampaign } from "../../../core/campaigns/resume-campaign.js";
import { ResumeCampaignCommand } from "../../../core/campaigns/send-commands.js";
import {
  AudienceRuleCodec,
  CampaignPath,
  CreateCampaignCommand,
  DuplicateCampaignCommand,
  ListCampaignsQuery,
  PreviewComputedDataCommand,
  ScheduleCampaignCommand,
  TargetListsCodec,
  UpdateCampaignCommand,
} from "../../../core/campaigns/commands.js";
import { CreateCampaign } from "../../../core/campaigns/create-campaign.js";
import { DeleteCampaign } from "../../../core/campaigns/delete-campaign.js";
import { DuplicateCampaign } from "../../../core/campaigns/duplicate-campaign.js";
import { GetCampaign } from "../../../core/campaigns/get-campaign.js";
import { GetCampaignAudience } from "../../../core/campaigns/get-campaign-audience.js";
import { ListCampaigns } from "../../../core/campaigns/list-campaigns.js";
import { CAMPAIGN_STATUSES, TARGET_TYPES } from "../../../core/campaigns/model.js";
import { PreviewCampaign } from "../../../core/campaigns/preview-campaign.js";
import { PreviewComputedData } from "../../../core/campaigns/preview-computed-data.js";
import { ScheduleCampaign } from "../../../core/campaigns/schedule-campaign.js";
import { UnscheduleCampaign } from "../../../core/campaigns/unschedule-campaign.js";
import { UpdateCampaign } from "../../../core/campaigns/update-campaign.js";
import { CampaignSummaryView, CampaignView } from "../../../core/campaigns/view.js";
import { RenderPreviewCommand } from "../../../core/emails/commands.js";
import { FilterLeafCodec } from "../../../core/segments/commands.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { Id, NullableString, Timestamp, view } from "../../../core/shared/view-fields.js";
import { OffsetPaginationView } from "../../../core/shared/offset-pagination.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";
import { renderPreviewView } from "../../../core/emails/render-preview-view.js";

const TAG = "Campaigns";
const NOT_FOUND = "404 'Campaign not found' (also for another company's campaign)";
const STATE_RULE = "A move the campaign's state does not allow is 400 with code INVALID_CAMPAIGN_STATE and the current status, named in the message too.";
const CONTENT =
  "The body: at most one of html (raw HTML), blocks (see GET /email-blocks) and templateId (a copy of that template's content; its subject and previewText unless given). prompt (AI generation) is not available: 400.";
const AUDIENCE =
  "Audience: at most one of segmentId, listIds and targetLists {type: all|lists|segment|filtered|rules, listIds, segmentId, filters, filterJoinOperator, include[], exclude[]}; " +
  'rules are {type:"all"} (include only), {type:"lists", listIds}, {type:"segments", segmentIds}, {type:"filtered", filters, filterJoinOperator}. Lists and segments must be the company\'s (400 otherwise). No targeting means all active subscribers.';
const IDENTITY = "Identity: senderProfileId or fromEmail (+fromName); replyProfileId or replyTo (+replyToName).";
const SENDING =
  "At scheduledAt (a time up to a minute past counts as now: it starts at once) the campaign becomes sending: its audience is frozen, the contacts left out are counted by reason in progress.excluded, " +
  "and the recipients go out in batches (evenly over spreadOverHours when given; with sendInRecipientTimezone, each at scheduledAt's wall-clock time in scheduledTimezone where the contact lives: its timezone, else the campaign's); " +
  "it is sent once every message was handed to the relay. progress shows recipients, queued, sent and remaining.";

const campaign = view({ campaign: CampaignView });
const AudienceReferenceView = view({ id: t.string, name: NullableString, missing: t.boolean });

/** Campaigns: content, audience and states (compat-reference §11). */
export const campaignsRoutes = routeModule(
  {
    listCampaigns: ListCampaigns,
    getCampaign: GetCampaign,
    createCampaign: CreateCampaign,
    updateCampaign: UpdateCampaign,
    deleteCampaign: DeleteCampaign,
    getAudience: GetCampaignAudience,
    duplicateCampaign: DuplicateCampaign,
    previewCampaign: PreviewCampaign,
    previewComputedData: PreviewComputedData,
    scheduleCampaign: ScheduleCampaign,
    unscheduleCampaign: UnscheduleCampaign,
    cancelCampaign: CancelCampaign,
    pauseCampaign: PauseCampaign,
    resumeCampaign: ResumeCampaign,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/campaigns",
      tag: TAG,
      scopes: ["campaigns:read"],
      summary: `List campaigns, newest first, optionally of one status (${CAMPAIGN_STATUSES.join(", ")}) or carrying a label; limit 1-100 (default 50) and offset`,
      query: ListCampaignsQuery,
      response: view({ campaigns: t.readonlyArray(CampaignSummaryView), pagination: OffsetPaginationView }),
      errors: [422],
      handle: async ({ input, actor }) => uses.listCampaigns.execute(actor, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/campaigns/:campaignId",
      tag: TAG,
      scopes: ["campaigns:read"],
      summary: `One campaign with its content, targetLists, identity and stats (from its sends, test sends left out: zeros until sent). Drafts imported by a migration read as any draft. ${NOT_FOUND}`,
      params: CampaignPath,
      response: campaign,
      errors: [404],
      handle: async ({ input, actor }) => under("campaign")(await uses.getCampaign.execute(actor, input.params.campaignId)),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary:
        `Create a draft: name and subject required (subject may come from templateId), previewText, trackingCode, labels, campaignData (a JSON object, arrays of at most 500 items), ccEmails/bccEmails (at most 10). ${CONTENT} ${AUDIENCE} ${IDENTITY} ` +
        "status sent with sentAt archives a campaign sent elsewhere (nothing is delivered). computedLists: per-recipient picks from a campaignData array (key, source, where, sortBy, slots), read in templates as computed.{key}.",
      body: CreateCampaignCommand,
      response: campaign,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("campaign")(await uses.createCampaign.execute(actor, input.body)),
    }),
    defineRoute({
      method: "put",
      path: "/campaigns/:campaignId",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary:
        `Change a draft: any create field except templateId and status (400 'No supported fields provided' when none; campaignId and companyId in the body are ignored). null clears targetLists, ccEmails, bccEmails, maxRecipients; "" clears trackingCode. ` +
        `Only drafts: ${STATE_RULE} ${NOT_FOUND}`,
      params: CampaignPath,
      body: UpdateCampaignCommand,
      response: campaign,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("campaign")(await uses.updateCampaign.execute(actor, input.params.campaignId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/campaigns/:campaignId",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary: `Delete a campaign that is draft, sent or cancelled; a scheduled, sending or paused one must be unscheduled or cancelled first (${STATE_RULE}) ${NOT_FOUND}`,
      params: CampaignPath,
      response: view({ campaignId: Id }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.deleteCampaign.execute(actor, input.params.campaignId),
    }),
    defineRoute({
      method: "get",
      path: "/campaigns/:campaignId/audience",
      tag: TAG,
      scopes: ["campaigns:read"],
      summary:
        "Who the campaign targets: a summary sentence, the lists and segments it names (missing once deleted: they reach nobody), its filters and rules, and recipientCount: " +
        `active contacts it would reach now, less suppressed addresses and unconfirmed double opt-ins. ${NOT_FOUND}`,
      params: CampaignPath,
      response: view({
        campaignId: Id,
        campaignName: t.string,
        status: oneOf(CAMPAIGN_STATUSES, "CampaignStatus"),
        audience: view({
          type: oneOf(TARGET_TYPES, "TargetType"),
          summary: t.string,
          isUnset: t.boolean,
          lists: t.readonlyArray(AudienceReferenceView),
          segments: t.readonlyArray(AudienceReferenceView),
          filters: t.readonlyArray(FilterLeafCodec),
          include: t.readonlyArray(AudienceRuleCodec),
          exclude: t.readonlyArray(AudienceRuleCodec),
        }),
        recipientCount: t.number,
        targetLists: t.union([TargetListsCodec, t.null]),
      }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.getAudience.execute(actor, input.params.campaignId),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/duplicate",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary: `Copy a campaign (any state) into a new draft named '<name> (copy)': content, audience, identity, labels and data; no schedule. mode campaign only (ab_test and variant: 400). ${NOT_FOUND}`,
      params: CampaignPath,
      body: DuplicateCampaignCommand,
      response: campaign,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("campaign")(await uses.duplicateCampaign.execute(actor, input.params.campaignId, input.body)),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/render",
      tag: TAG,
      scopes: ["campaigns:read"],
      summary:
        "Preview the campaign as a contact would receive it (theme, default footer, merge tags from the contact, then campaignData, then variables), without tracking: subscriberId (404 'Subscriber not found') or subscriber (inline), plus variables. " +
        `400 when the campaign has no subject or body yet. ${NOT_FOUND}`,
      params: CampaignPath,
      body: RenderPreviewCommand,
      response: renderPreviewView("campaign"),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.previewCampaign.execute(actor, input.params.campaignId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/preview-computed-data",
      tag: TAG,
      scopes: ["campaigns:read"],
      summary:
        "The variables the campaign resolves for a contact: subscriberId (a stored contact) or subscriber (inline, with email and customAttributes); one is required (400 'Provide subscriberId or subscriber.'). " +
        `The contact's fields and attributes over the campaign's campaignData, and each computed list for the contact: key, items (every item the contact qualifies for, in order), exposures (the items shown, each with its slot from 1), exactly as the send resolves them. ${NOT_FOUND}`,
      params: CampaignPath,
      body: PreviewComputedDataCommand,
      response: view({
        variables: t.record(t.string, t.unknown),
        lists: t.readonlyArray(
          t.type({
            key: t.string,
            items: t.readonlyArray(t.record(t.string, t.unknown)),
            exposures: t.readonlyArray(t.intersection([t.type({ slot: t.number }), t.record(t.string, t.unknown)])),
          }),
        ),
      }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.previewComputedData.execute(actor, input.params.campaignId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/schedule",
      tag: TAG,
      scopes: ["campaigns:send"],
      summary:
        "Schedule a draft (or re-schedule a scheduled campaign): scheduledAt (required, in the future), targetLists or listIds (replace the audience), spreadOverHours (1-72; overrides sendTimeOptimization), " +
        "sendInRecipientTimezone (needs scheduledTimezone, an IANA zone; not with recurringInterval or spreadOverHours), recurringInterval (weekly, monthly: when an occurrence's send finishes, the next is scheduled as a new campaign with previousOccurrenceId; unscheduling or cancelling it ends the series), sendTimeWindowHours (1-24), maxRecipients. " +
        `Needs a subject, content, and an audience whose lists and segments still exist (400 otherwise). ${STATE_RULE} ${SENDING} ${NOT_FOUND}`,
      params: CampaignPath,
      body: ScheduleCampaignCommand,
      response: view({ campaign: CampaignView, scheduledAt: Timestamp }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.scheduleCampaign.execute(actor, input.params.campaignId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/unschedule",
      tag: TAG,
      scopes: ["campaigns:send"],
      summary: `Take a scheduled campaign back to draft; its time, spread, timezone and recurrence are removed. ${STATE_RULE} ${NOT_FOUND}`,
      params: CampaignPath,
      response: campaign,
      errors: [400, 404],
      handle: async ({ input, actor }) => under("campaign")(await uses.unscheduleCampaign.execute(actor, input.params.campaignId)),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/cancel",
      tag: TAG,
      scopes: ["campaigns:send"],
      summary: `Cancel a scheduled, sending or paused campaign, for good (it can be duplicated). ${STATE_RULE} ${NOT_FOUND}`,
      params: CampaignPath,
      response: campaign,
      errors: [400, 404],
      handle: async ({ input, actor }) => under("campaign")(await uses.cancelCampaign.execute(actor, input.params.campaignId)),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/pause",
      tag: TAG,
      scopes: ["campaigns:send"],
      summary: `Pause a sending campaign: no batch goes out after the one being queued (messages already queued are still delivered). ${STATE_RULE} ${NOT_FOUND}`,
      params: CampaignPath,
      response: campaign,
      errors: [400, 404],
      handle: async ({ input, actor }) => under("campaign")(await uses.pauseCampaign.execute(actor, input.params.campaignId)),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/resume",
      tag: TAG,
      scopes: ["campaigns:send"],
      summary: `Resume a paused campaign from its next batch: at once, or evenly over spreadOverHours (1-72) from now. ${STATE_RULE} ${NOT_FOUND}`,
      params: CampaignPath,
      body: ResumeCampaignCommand,
      response: campaign,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("campaign")(await uses.resumeCampaign.execute(actor, input.params.campaignId, input.body)),
    }),
  ],
);
