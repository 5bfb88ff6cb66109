import * as t from "io-ts";
import { CampaignPath, CreateCampaignGoalCommand, GoalPath, SendCampaignTestCommand, UpdateCampaignGoalCommand } from "../../../core/campaigns/commands.js";
import { CreateCampaignGoal } from "../../../core/campaigns/create-campaign-goal.js";
import { DeleteCampaignGoal } from "../../../core/campaigns/delete-campaign-goal.js";
import { GoalView, MAX_CAMPAIGN_GOALS } from "../../../core/campaigns/goals.js";
import { ListCampaignGoals } from "../../../core/campaigns/list-campaign-goals.js";
import { UpdateCampaignGoal } from "../../../core/campaigns/update-campaign-goal.js";
import { NON_OPENERS_WAIT_HOURS, ResendToNonOpeners } from "../../../core/campaigns/resend-to-non-openers.js";
import { SendCampaignTest } from "../../../core/campaigns/send-campaign-test.js";
import { ShareCampaign } from "../../../core/campaigns/share-campaign.js";
import { UnshareCampaign } from "../../../core/campaigns/unshare-campaign.js";
import { CampaignView } from "../../../core/campaigns/view.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Campaigns";
const NOT_FOUND = "404 'Campaign not found' (also for another company's campaign)";

const GOAL_FIELDS =
  "name, description, triggerEventName (the event that converts), eventPropertyName and eventPropertyLabel (kept for display), attributionWindowHours (1-720; default: the company's default attribution window), isActive. " +
  "Only event goals exist here: triggerType attribute_change or attribute fields are 400.";
const GOAL_NOT_FOUND = "404 'Campaign not found' or 'Goal not found' (also another company's)";

/** What is done with a campaign beyond editing and scheduling it (compat-reference §11): test sends, share links, a resend to non-openers, goals. */
export const campaignActionsRoutes = routeModule(
  {
    sendCampaignTest: SendCampaignTest,
    shareCampaign: ShareCampaign,
    unshareCampaign: UnshareCampaign,
    resendToNonOpeners: ResendToNonOpeners,
    listGoals: ListCampaignGoals,
    createGoal: CreateCampaignGoal,
    updateGoal: UpdateCampaignGoal,
    deleteGoal: DeleteCampaignGoal,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/test",
      tag: TAG,
      scopes: ["campaigns:send"],
      summary:
        "Send the campaign (in any state) once to one address, as a recipient would get it: its From and Reply-To, theme, footer, tracking and merge tags (from the contact of that address when there is one, then campaignData). " +
        "It is a test send: it never counts in metrics, the campaign's stats or segments. 400 when the campaign has no subject or body yet; 409 without a verified sender. " +
        NOT_FOUND,
      params: CampaignPath,
      body: SendCampaignTestCommand,
      response: view({ emailSendId: Id, recipientEmail: t.string }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => uses.sendCampaignTest.execute(actor, input.params.campaignId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/share-link",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary:
        "Create (or get) the campaign's public view-in-browser link: anyone with shareUrl (a signed token) sees its email rendered for a sample contact, with an inert unsubscribe link and no tracking. " +
        `Idempotent: while a link is live the same URL comes back with created false. ${NOT_FOUND}`,
      params: CampaignPath,
      response: view({ campaignId: Id, shareUrl: t.string, shareToken: t.string, created: t.boolean }),
      errors: [404],
      handle: async ({ input, actor }) => uses.shareCampaign.execute(actor, input.params.campaignId),
    }),
    defineRoute({
      method: "delete",
      path: "/campaigns/:campaignId/share-link",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary: `Revoke the public link: its URL is not found from now on, and sharing again mints a different one. revoked is false when no link was live. ${NOT_FOUND}`,
      params: CampaignPath,
      response: view({ campaignId: Id, revoked: t.boolean }),
      errors: [404],
      handle: async ({ input, actor }) => uses.unshareCampaign.execute(actor, input.params.campaignId),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/resend-to-non-openers",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary:
        "Make a new draft of the same email (content, identity, data, labels; not scheduled) whose audience is the contacts the campaign was sent to who did not open it (people's opens; test sends aside), " +
        `with estimatedNonOpenerCount: how many it would reach now. Only for a sent campaign (400 with code INVALID_CAMPAIGN_STATE otherwise) made here (an imported one: 400), from ${NON_OPENERS_WAIT_HOURS} hours after its send finished ` +
        `(400 with code TOO_EARLY and availableAt before then). ${NOT_FOUND}`,
      params: CampaignPath,
      response: view({ campaign: CampaignView, estimatedNonOpenerCount: t.number }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.resendToNonOpeners.execute(actor, input.params.campaignId),
    }),
    defineRoute({
      method: "get",
      path: "/campaigns/:campaignId/goals",
      tag: TAG,
      scopes: ["campaigns:read"],
      summary: `The campaign's goals, oldest first; their conversions show in GET /metrics/campaigns/{id}. ${NOT_FOUND}`,
      params: CampaignPath,
      response: view({ goals: t.readonlyArray(GoalView) }),
      errors: [404],
      handle: async ({ input, actor }) => uses.listGoals.execute(actor, input.params.campaignId),
    }),
    defineRoute({
      method: "post",
      path: "/campaigns/:campaignId/goals",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary:
        "Add a goal: a contact the campaign reached who records the goal's event within attributionWindowHours after their send is a conversion. " +
        `${GOAL_FIELDS} name and triggerEventName are required; at most ${MAX_CAMPAIGN_GOALS} goals. ${NOT_FOUND}`,
      params: CampaignPath,
      body: CreateCampaignGoalCommand,
      response: view({ goal: GoalView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.createGoal.execute(actor, input.params.campaignId, input.body),
    }),
    defineRoute({
      method: "patch",
      path: "/campaigns/:campaignId/goals/:goalId",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary: `Change a goal: any of ${GOAL_FIELDS} null or "" clears description and the event property fields; 400 'No supported fields provided' when none. ${GOAL_NOT_FOUND}`,
      params: GoalPath,
      body: UpdateCampaignGoalCommand,
      response: view({ goal: GoalView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.updateGoal.execute(actor, input.params.campaignId, input.params.goalId, input.body),
    }),
    defineRoute({
      method: "delete",
      path: "/campaigns/:campaignId/goals/:goalId",
      tag: TAG,
      scopes: ["campaigns:write"],
      summary: `Delete a goal (the events it counted stay). ${GOAL_NOT_FOUND}`,
      params: GoalPath,
      response: view({ goalId: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteGoal.execute(actor, input.params.campaignId, input.params.goalId),
    }),
  ],
);
