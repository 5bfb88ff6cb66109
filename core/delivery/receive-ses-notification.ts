import type { Clock } from "../ports/clock.js";
import { badRequest, forbidden, unauthorized } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { isAmazonUrl } from "./amazon-url.js";
import type { SesTopicPins, SnsMessage, SnsSubscriptions, SnsVerifier } from "./ports.js";
import type { RecordDeliveryEvent, RecordedDeliveryEvent } from "./record-delivery-event.js";
import { fromSesNotification } from "./ses-notification.js";

export const INVALID_SIGNATURE = "Invalid signature";

/** What became of an SNS message that was accepted. */
export type SesWebhookOutcome =
  /** A subscription confirmation: `confirmed` says whether SNS accepted our visit to its SubscribeURL. */
  | { readonly kind: "subscriptionConfirmed"; readonly confirmed: boolean }
  /** A message with nothing to record (an unsubscribe confirmation, an SES event type we do not keep). */
  | { readonly kind: "ignored" }
  | ({ readonly kind: "recorded" } & RecordedDeliveryEvent);

/**
 * POST /api/webhooks/ses/{companyId}: an Amazon SES notification delivered through an SNS
 * subscription. Nothing changes unless SNS's signature holds and the company exists.
 *
 * SNS signs what any AWS account's topic sends, so a valid signature alone does not say the
 * message is this company's: the first topic whose subscription is confirmed (or, for
 * subscriptions confirmed before pinning existed, whose first message arrives) is pinned, and
 * messages of any other topic are refused until the company unpins it.
 */
export class ReceiveSesNotification {
  constructor(
    private readonly verifier: SnsVerifier,
    private readonly subscriptions: SnsSubscriptions,
    private readonly pins: SesTopicPins,
    private readonly recorder: RecordDeliveryEvent,
    private readonly clock: Clock,
  ) {}

  /** `body` is the request body as posted (SNS posts JSON as text/plain). */
  execute = async (companyId: string, body: string): Promise<Result<SesWebhookOutcome>> => {
    const posted = parseJson(body);
    if (!posted || typeof posted !== "object") return fail(badRequest("Body must be an SNS message"));
    const verified = await this.verifier.verify(posted as Record<string, unknown>);
    if (verified._tag === "Left") return fail(unauthorized(INVALID_SIGNATURE));
    const message = verified.right;

    const exists = await this.recorder.companyExists(companyId);
    if (exists._tag === "Left") return exists;
    const pinned = await this.pins.pinIfNone(companyId, message.TopicArn, this.clock.now());
    if (pinned !== message.TopicArn) {
      return fail(
        forbidden(
          `SES events of this company come from the SNS topic ${pinned}; messages from other topics are refused (DELETE /api/v1/delivery-webhooks/ses-topic to change it)`,
        ),
      );
    }

    switch (message.Type) {
      case "SubscriptionConfirmation":
        return this.confirm(message);
      case "Notification":
        return this.record(companyId, message);
      default:
        return ok({ kind: "ignored" });
    }
  };

  private async confirm(message: SnsMessage): Promise<Result<SesWebhookOutcome>> {
    if (!isAmazonUrl(message.SubscribeURL)) return fail(badRequest("SubscribeURL is not an Amazon URL"));
    return ok({ kind: "subscriptionConfirmed", confirmed: await this.subscriptions.confirm(message.SubscribeURL!) });
  }

  private async record(companyId: string, message: SnsMessage): Promise<Result<SesWebhookOutcome>> {
    const parsed = fromSesNotification(parseJson(message.Message), message.MessageId, this.clock.now());
    if (!parsed) return ok({ kind: "ignored" });
    const recorded = await this.recorder.execute(companyId, parsed.reference, parsed.event);
    if (recorded._tag === "Left") return recorded;
    return ok({ kind: "recorded", ...recorded.right });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
