import type { DeliveryJob } from "../delivery/ports.js";
import { token } from "../shared/token.js";
import type { SendingState, SendingStatus } from "./model.js";
import type { BounceWindow, ComplaintWindow } from "./thresholds.js";

/** What a change of the sending state did. */
export interface SendingStateChange {
  readonly before: SendingState;
  /** The state now: `before` when the decision was no change. */
  readonly after: SendingState;
  readonly changed: boolean;
  /** Held sends queued for delivery again. */
  readonly released: number;
}

/** A company's sending state, the sends it holds back, and the rates it is judged by. */
export interface SendingStatusRepository {
  /** The company's state (ACTIVE_SENDING when it never had one). */
  get(companyId: string): Promise<SendingState>;
  /**
   * Decides the next state from the current one while no other change can interleave (`decide`
   * returns null for no change). With `release`, when the state turns active, every held send is
   * queued for delivery again with that job, in the same transaction.
   */
  change(companyId: string, decide: (current: SendingState) => SendingState | null, at: Date, release?: DeliveryJob): Promise<SendingStateChange>;
  /**
   * Holds the pending sends among `sendIds` (delivered after a resume), provided the company's
   * status is still `expected`, checked in the same statement; false when it no longer is.
   */
  hold(companyId: string, expected: SendingStatus, sendIds: readonly string[], at: Date): Promise<boolean>;
  /** Sends held now. */
  countHeld(companyId: string): Promise<number>;
  /** The latest RECENT_SENDS sends made after `since` (all when null), and their hard and soft bounces. */
  bounceWindow(companyId: string, since: Date | null): Promise<BounceWindow>;
  /** The latest RECENT_SENDS sends made after `since` (all when null), and their complaints. */
  complaintWindow(companyId: string, since: Date | null): Promise<ComplaintWindow>;
}
export const SendingStatusRepository = token<SendingStatusRepository>("lifecycle.SendingStatusRepository");
