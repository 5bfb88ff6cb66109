import type { Clock } from "../ports/clock.js";
import { forbidden } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SesTopicPins } from "./ports.js";

/**
 * SNS signs what any AWS account's topic sends, so a valid signature alone does not say the
 * message is this company's: the first topic whose subscription is confirmed (or, for
 * subscriptions confirmed before pinning existed, whose first message arrives) is pinned, and
 * messages of any other topic are refused until the company unpins it.
 */
export class CheckSesTopic {
  constructor(
    private readonly pins: SesTopicPins,
    private readonly clock: Clock,
  ) {}

  execute = async (companyId: string, topicArn: string): Promise<Result<true>> => {
    const pinned = await this.pins.pinIfNone(companyId, topicArn, this.clock.now());
    if (pinned === topicArn) return ok(true);
    return fail(forbidden(`SES events of this company come from the SNS topic ${pinned}; messages from other topics are refused (DELETE /api/v1/delivery-webhooks/ses-topic to change it)`));
  };
}
