import type { SegmentDefinition } from "../segments/ports.js";
import { token } from "../shared/token.js";
import type { Sequence } from "./model.js";

/** The reads and writes of triggers and enrollment rules beyond one sequence's own enrollments. */
export interface TriggerStore {
  /** How many events of this name the contact has had since `since` (one indexed count). */
  countEvents(companyId: string, subscriberId: string, eventName: string, since: Date): Promise<number>;
  /** Whether the contact entered the sequence at `since` or later. */
  enteredSince(companyId: string, sequenceId: string, subscriberId: string, since: Date): Promise<boolean>;
  /**
   * Cancels every running enrollment of the contact, in every sequence, in one statement (the
   * step count goes up, so a run that read one before cannot move it on); only unlimited
   * sequences free the entry key. Returns how many were cancelled.
   */
  cancelEverywhere(companyId: string, subscriberId: string, change: { readonly reason: string; readonly at: Date }): Promise<number>;
  /** The lists the contact is a member of (and has not left). */
  listIdsOf(companyId: string, subscriberId: string): Promise<string[]>;
  /** Enabled sequences with this trigger (taking new entries or not), of every company, oldest first. */
  activeWithTrigger(trigger: string): Promise<Sequence[]>;
  /**
   * Up to `limit` active contacts of the sequence's company, after the ID `after` in ID order,
   * who signed up and have had no activity (custom event, a person's open or click) since
   * `inactiveSince`, and have not entered the sequence since their last activity.
   */
  inactiveContacts(sequence: Sequence, options: { readonly inactiveSince: Date; readonly after: string | null; readonly limit: number }): Promise<string[]>;
}
export const TriggerStore = token<TriggerStore>("lifecycle.TriggerStore");

/** What a `segment_entered` sequence remembers of its segment between evaluations (migration 0029). */
export interface SegmentWatches {
  /** The segment the remembered members belong to, and whether the first evaluation recorded them all. */
  find(companyId: string, sequenceId: string): Promise<{ readonly segmentId: string; readonly seeded: boolean } | null>;
  /** Watches `segmentId` afresh: the members remembered (of another segment) are forgotten. */
  restart(companyId: string, sequenceId: string, segmentId: string): Promise<void>;
  markSeeded(companyId: string, sequenceId: string, at: Date): Promise<void>;
  /** Up to `limit` contacts in the segment now and not remembered, in ID order: remembered from now on (entered at `at`). */
  takeEntered(sequenceId: string, definition: SegmentDefinition, limit: number, at: Date): Promise<string[]>;
  /** Up to `limit` remembered contacts no longer in the segment: forgotten from now on. */
  takeExited(sequenceId: string, definition: SegmentDefinition, limit: number): Promise<string[]>;
}
export const SegmentWatches = token<SegmentWatches>("lifecycle.SegmentWatches");
