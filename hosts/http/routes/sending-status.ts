import { ResumeSendingCommand } from "../../../core/sending-health/commands.js";
import { GetSendingStatus } from "../../../core/sending-health/get-sending-status.js";
import { ResumeSending } from "../../../core/sending-health/resume-sending.js";
import {
  HARD_BOUNCE_MINIMUM_SENDS,
  HARD_BOUNCE_PAUSE_PERCENT,
  COMPLAINT_MINIMUM_SENDS,
  COMPLAINT_PAUSE_PERCENT,
  COMPLAINT_SUSPEND_PERCENT,
  RECENT_SENDS,
} from "../../../core/sending-health/thresholds.js";
import { ResumeSendingView, SendingStatusView } from "../../../core/sending-health/view.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

const THRESHOLDS =
  `Measured over the latest ${RECENT_SENDS} sends since the metrics reset: hard bounces above ${HARD_BOUNCE_PAUSE_PERCENT}% (from ${HARD_BOUNCE_MINIMUM_SENDS} sends) pause sending, ` +
  `spam complaints above ${COMPLAINT_PAUSE_PERCENT}% (from ${COMPLAINT_MINIMUM_SENDS} sends) pause it, above ${COMPLAINT_SUSPEND_PERCENT}% suspend it. ` +
  "A pause holds marketing and sequence sends (transactional mail still goes); a suspension holds every send. Held sends are delivered after the resume.";

/** Sending health (compat-reference §25): the automatic pause and its resume. */
export const sendingStatusRoutes = routeModule(
  {
    getSendingStatus: GetSendingStatus,
    resumeSending: ResumeSending,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/sending-status",
      tag: "Sending status",
      scopes: ["analytics:read"],
      summary: `Whether the company may send (active, paused, suspended), why not, the rates it is judged by, whether it can resume itself and what to do. ${THRESHOLDS}`,
      response: SendingStatusView,
      handle: async ({ actor }) => uses.getSendingStatus.execute(actor),
    }),
    defineRoute({
      method: "post",
      path: "/sending-status/resume",
      tag: "Sending status",
      scopes: ["senders:write"],
      summary:
        "Resume sending after a hard-bounce pause, confirming the list is clean (listSanitizationConfirmed: true, else 400 LIST_SANITIZATION_REQUIRED): the bounce rate starts over (metricsWindow.bounceResetAt) and held sends are queued for delivery (releasedSends). A complaint pause or a suspension cannot be resumed from the API: 409 SELF_RESUME_NOT_ALLOWED (the operator resumes it). resumed is false when sending was active",
      body: ResumeSendingCommand,
      response: ResumeSendingView,
      errors: [400, 409, 422],
      handle: async ({ input, actor }) => uses.resumeSending.execute(actor, input.body),
    }),
  ],
);
