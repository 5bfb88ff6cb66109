import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { UpdateSubscriber } from "../subscribers/update-subscriber.js";
import type { SuppressionRepository } from "../suppressions/ports.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { TrackedSend } from "./model.js";
import type { EngagementRepository } from "./ports.js";
import type { TrackingTokens } from "./tracking-tokens.js";
import { resolveUnsubscribeToken, type UnsubscribePage } from "./unsubscribe-page.js";

/**
 * The recipient acting on their own contact through a signed link: no team member, no scopes.
 * UpdateSubscriber reads only the company from its actor.
 */
const recipientActor = (companyId: string): Actor => ({
  companyId,
  memberId: "",
  userId: "",
  role: "marketer",
  scopes: new Set(),
  apiKeyId: "",
  apiKeyPreset: "custom",
});

/**
 * POST of an unsubscribe link (the page's button, or a mail client's RFC 8058 one-click): the
 * address is suppressed (so no further marketing mail goes to it), the contact becomes
 * unsubscribed (a global unsubscribe, as PATCH /subscribers does it), and the send records the
 * unsubscribe. Every step is idempotent, so repeating the request completes an interrupted one.
 */
export class UnsubscribeRecipient {
  constructor(
    private readonly tokens: TrackingTokens,
    private readonly engagements: EngagementRepository,
    private readonly tenancy: TenancyRepository,
    private readonly suppressions: SuppressionRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly updateSubscriber: UpdateSubscriber,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (token: string): Promise<Result<UnsubscribePage>> => {
    const now = this.clock.now();
    const resolved = await resolveUnsubscribeToken(this.tokens, this.engagements, this.tenancy, token, now);
    if (resolved._tag === "Left") return resolved;
    const { send, companyName } = resolved.right;

    await this.suppressions.add({ companyId: send.companyId, email: send.recipientEmail, reason: "unsubscribe", emailSendId: send.id, at: now });
    await this.unsubscribeContact(send);
    await this.engagements.markUnsubscribed(send.companyId, send.id, this.ids.next("eev"), now);
    return ok({ companyName, email: send.recipientEmail, unsubscribed: true });
  };

  /** The send's contact (or, when it was deleted, the company's contact with the address), if any. */
  private async unsubscribeContact(send: TrackedSend): Promise<void> {
    const contact =
      (send.subscriberId ? await this.subscribers.findById(send.companyId, send.subscriberId) : null) ??
      (await this.subscribers.findByEmail(send.companyId, send.recipientEmail));
    if (!contact || contact.status === "unsubscribed") return;
    const updated = await this.updateSubscriber.execute(recipientActor(send.companyId), { email: contact.email }, { status: "unsubscribed" });
    if (updated._tag === "Left" && updated.left._tag !== "NotFound") throw new Error(`Could not unsubscribe contact ${contact.id}: ${updated.left.message}`);
  }
}
