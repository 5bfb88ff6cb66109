import type { WorkOf } from "../jobs/job-definition.js";
import { isLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Job } from "../ports/job-queue.js";
import { needsConfirmation, UNCONFIRMED } from "../opt-in/model.js";
import type { OptInRepository } from "../opt-in/ports.js";
import type { SendingGate } from "../sending-health/sending-gate.js";
import type { Suppression } from "../suppressions/model.js";
import type { SuppressionRepository } from "../suppressions/ports.js";
import { composeMessage } from "./compose-message.js";
import type { MailTransport } from "./mail-transport.js";
import { eachInFlight } from "../shared/each-in-flight.js";
import { suppressionBlocks } from "../suppressions/suppression-blocks-send.js";
import { domainOf, type EmailSendWithoutBodies, type SendBodies, type SendStatus } from "./model.js";
import type { DkimKeys, EmailSendRepository } from "./ports.js";
import type { DeliverEmailsJob } from "./queue-email-send.js";

/** Why a transport error failed a send, short enough to show. */
export function transportFailureReason(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]?.trim();
  return (message || "unknown transport error").slice(0, 500);
}

/**
 * The `email.deliver` job: a pending send waits while the company's sending is paused (held, see
 * SendingGate), goes to a suppressed recipient never (status suppressed), nor marketing mail to a
 * contact that has not confirmed its double opt-in (suppressed, reason `unconfirmed`), else to
 * the mail transport (status sent, a `send` event). Transport errors are
 * retried by the queue; after the last attempt the send is failed with a `transport_failure`
 * event. A send that is no longer pending is left alone, so a job run twice sends once
 * (unless the worker dies between the hand-over and the status write).
 */
export class DeliverEmail {
  constructor(
    private readonly sends: EmailSendRepository,
    private readonly suppressions: SuppressionRepository,
    private readonly dkimKeys: DkimKeys,
    private readonly transport: MailTransport,
    private readonly gate: SendingGate,
    private readonly optIns: OptInRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * Hands the sends of the job to the transport, as many at once as it takes (`inFlight`), each
   * body read as its send is handed over: a job of fifty holds a few bodies, not fifty, while the
   * relay works. When some fail, the job is retried (sends already sent are no longer pending and
   * are skipped); after its last attempt the sends that still fail are failed.
   */
  runJob = async ({ companyId, payload }: WorkOf<typeof DeliverEmailsJob>, job: Job): Promise<void> => {
    const sends = await this.sends.getMany(companyId, payload.emailSendIds);
    const pending = await this.gate.admit(
      companyId,
      sends.filter((send) => send.status === "pending"),
    );
    const suppressions = await this.suppressions.findMany(
      companyId,
      pending.map((send) => send.recipientEmail),
    );
    const suppressionOf = (send: EmailSendWithoutBodies) => suppressions.find((suppression) => suppression.email === send.recipientEmail) ?? null;
    const unconfirmed = await this.optIns.unconfirmedAmong(
      companyId,
      pending.filter(needsConfirmation).map((send) => send.recipientEmail),
    );
    const failures: Array<{ sendId: string; error: unknown }> = [];
    await eachInFlight(pending, this.transport.inFlight, async (send) => {
      try {
        const bodies = () => this.sends.bodiesOf(companyId, send.id);
        await this.deliver(send, bodies, suppressionOf(send), needsConfirmation(send) && unconfirmed.has(send.recipientEmail));
      } catch (error) {
        failures.push({ sendId: send.id, error });
      }
    });
    if (failures.length === 0) return;
    if (!isLastAttempt(job)) {
      const [first] = failures;
      throw failures.length === 1 ? first!.error : new Error(`${failures.length} sends were not delivered; the first: ${transportFailureReason(first!.error)}`);
    }
    for (const { sendId, error } of failures) {
      const reason = transportFailureReason(error);
      await this.sends.markFailed(companyId, sendId, reason, { id: this.ids.next("eev"), at: this.clock.now(), details: { reason, attempts: job.attempts } });
    }
  };

  /** Delivers one send; resolves to its status afterwards (null when it does not exist; pending when it is held). */
  execute = async (companyId: string, sendId: string): Promise<SendStatus | null> => {
    const send = await this.sends.get(companyId, sendId);
    if (!send) return null;
    if (send.status !== "pending") return send.status;
    if ((await this.gate.admit(companyId, [send])).length === 0) return "pending";
    const unconfirmed = needsConfirmation(send) && (await this.optIns.unconfirmedAmong(companyId, [send.recipientEmail])).has(send.recipientEmail);
    return this.deliver(send, async () => send, await this.suppressions.find(companyId, send.recipientEmail), unconfirmed);
  };

  /** A pending send to the transport, unless its recipient's suppression blocks it or it waits for a confirmation. */
  private async deliver(
    send: EmailSendWithoutBodies,
    bodies: () => Promise<SendBodies>,
    suppression: Suppression | null,
    unconfirmed: boolean,
  ): Promise<SendStatus> {
    const { companyId } = send;
    const blockedBy = suppression && suppressionBlocks(suppression.reason, send) ? suppression.reason : unconfirmed ? UNCONFIRMED : null;
    if (blockedBy) {
      await this.sends.markSuppressed(companyId, send.id, blockedBy, this.clock.now());
      return "suppressed";
    }
    const dkim = await this.dkimKeys.find(companyId, domainOf(send.sender.email));
    const message = composeMessage({ ...send, ...(await bodies()) }, dkim);
    const sent = await this.transport.send(message);
    if (sent.accepted.length === 0) {
      throw new Error(`Recipient rejected: ${sent.response}`);
    }
    await this.sends.markSent(companyId, send.id, message.messageId, {
      id: this.ids.next("eev"),
      at: this.clock.now(),
      details: { response: sent.response },
    });
    return "sent";
  }
}
