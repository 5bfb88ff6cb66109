import type { EmailSendWithoutBodies } from "../delivery/model.js";
import type { Clock } from "../ports/clock.js";
import { holdsSend } from "./model.js";
import type { SendingStatusRepository } from "./ports.js";

/** Reads of a state that changed under the hold before the job gives up (and the queue retries it). */
const HOLD_TRIES = 3;

/**
 * Between the delivery job and the mail transport: while a company is paused or suspended, the
 * sends its state holds stay pending, marked held, and go out once sending resumes.
 */
export class SendingGate {
  constructor(
    private readonly sendingStatus: SendingStatusRepository,
    private readonly clock: Clock,
  ) {}

  /** The sends that may go now; the others are held. */
  admit = async <Send extends EmailSendWithoutBodies>(companyId: string, sends: readonly Send[]): Promise<Send[]> => {
    if (sends.length === 0) return [];
    for (let attempt = 0; attempt < HOLD_TRIES; attempt += 1) {
      const state = await this.sendingStatus.get(companyId);
      const held = sends.filter((send) => holdsSend(state, send));
      if (held.length === 0) return [...sends];
      // The status is checked again as the sends are held: a resume in between would never release them.
      const heldIds = new Set(held.map((send) => send.id));
      if (await this.sendingStatus.hold(companyId, state.status, [...heldIds], this.clock.now())) return sends.filter((send) => !heldIds.has(send.id));
    }
    throw new Error("The company's sending status kept changing while its sends were held; the delivery is retried");
  };
}
