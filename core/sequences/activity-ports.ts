import { token } from "../shared/token.js";
import type { Enrollment } from "./enrollment.js";

/** A custom event of a contact, as steps that wait for events or stop on them read it. */
export interface ContactEventRecord {
  readonly name: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly receivedAt: Date;
}

/** Which sends a click condition looks at. */
export type ClickScope =
  | { readonly kind: "ever" }
  | { readonly kind: "sequence"; readonly sequenceId: string; readonly since: Date }
  | { readonly kind: "send"; readonly sendId: string };

/**
 * What steps read of a contact's activity beyond the contact itself, and how a recorded event
 * wakes an enrollment waiting for it. Every method names the company.
 */
export interface SequenceActivityRepository {
  /**
   * The contact's events of this name received after `after` (or at it, when `inclusive`),
   * oldest first, at most `limit`. Events over an hour old when received (history) are left out.
   */
  eventsAfter(
    companyId: string,
    subscriberId: string,
    name: string,
    after: Date,
    options: { readonly inclusive: boolean; readonly limit: number },
  ): Promise<ContactEventRecord[]>;
  /** Whether the contact has an event of this name: any at all (history too) when `since` is null, else a live one received at or after it. */
  hasEvent(companyId: string, subscriberId: string, name: string, since: Date | null): Promise<boolean>;
  /** The sequence's last real (not test) send to the contact made at or after `since`. */
  lastSequenceSend(companyId: string, subscriberId: string, sequenceId: string, since: Date): Promise<{ readonly id: string; readonly sentAt: Date } | null>;
  /** URLs the contact clicked (a person, not a machine), newest first, at most `limit`: in any real send, the sequence's sends since a time, or one send. */
  clickedUrls(companyId: string, subscriberId: string, scope: ClickScope, limit: number): Promise<string[]>;
  /** The contact's enrollments in the `waiting` state. */
  waiting(companyId: string, subscriberId: string): Promise<Enrollment[]>;
  /** Makes a waiting enrollment at `nodeId` due at `now`, unless it moved on since; true when it did. */
  wake(enrollment: Enrollment, nodeId: string, now: Date): Promise<boolean>;
}
export const SequenceActivityRepository = token<SequenceActivityRepository>("lifecycle.SequenceActivityRepository");
