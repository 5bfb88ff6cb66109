import { token } from "../shared/token.js";
import type { SubscriberStatus } from "../subscribers/model.js";
import type { Enrollment, EnrollmentState, EnrollmentStatus, MoveSource, StepRecord } from "./enrollment.js";

export type EnrollmentSort = "enrolled_at_desc" | "enrolled_at_asc" | "wait_until_asc" | "wait_until_desc";

export interface EnrollmentFilter {
  readonly statuses: readonly EnrollmentStatus[];
  readonly subscriberIds?: readonly string[] | undefined;
  readonly email?: string | undefined;
  readonly currentNodeId?: string | undefined;
  /** matching_field values (the enrollments' `enrollmentKey`). */
  readonly enrollmentKeys?: readonly string[] | undefined;
  readonly sort: EnrollmentSort;
  readonly limit: number;
  readonly offset: number;
}

/** An enrollment with the contact fields the enrollments list shows. */
export interface EnrollmentWithContact extends Enrollment {
  readonly email: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly subscriberStatus: SubscriberStatus | null;
}

/** Where the running enrollments at some nodes go: a step they go on at, or the completion node, where their run ends. */
export interface Relocation {
  readonly fromNodeIds: readonly string[];
  readonly toNodeId: string;
  /** True when `toNodeId` is the completion node: the enrollments end there, `completed`. */
  readonly completes: boolean;
}

/** Why and by whom enrollments are moved. */
export interface MoveChange {
  readonly reason: string;
  readonly by: MoveSource;
  readonly at: Date;
  /** Whether a finished run keeps its entry key (one_time and matching_field sequences), as a run that ends by itself. */
  readonly keepEntryKey: boolean;
}

/** An enrollment a move reached. */
export interface MovedEnrollment {
  readonly id: string;
  readonly subscriberId: string;
}

/** Sequence enrollments and their steps. Every method but the sweep's names the company. */
export interface EnrollmentRepository {
  /** Stores a new enrollment unless its (sequence, entry key) is taken; true when stored. */
  insert(enrollment: Enrollment): Promise<boolean>;
  find(companyId: string, sequenceId: string, enrollmentId: string): Promise<EnrollmentWithContact | null>;
  /** The sequence's waiting enrollments after `afterId` (null: from the first), by ID, at most `limit`; only at `nodeIds` or of `subscriberIds` when given. */
  waitingPage(
    companyId: string,
    sequenceId: string,
    filter: { readonly nodeIds: readonly string[] | null; readonly subscriberIds: readonly string[] | null },
    afterId: string | null,
    limit: number,
  ): Promise<EnrollmentWithContact[]>;
  /** Moves a waiting enrollment's due time from `from` to `to`, unless it moved on or was rescheduled since; true when it did. */
  reschedule(companyId: string, enrollmentId: string, from: Date, to: Date, now: Date): Promise<boolean>;
  /** The contact's enrollments in any sequence, latest started first, at most `limit`. */
  ofContact(companyId: string, subscriberId: string, limit: number): Promise<Enrollment[]>;
  list(companyId: string, sequenceId: string, filter: EnrollmentFilter): Promise<{ enrollments: EnrollmentWithContact[]; total: number }>;
  /** Running enrollments of the company's live sequences that are due, the longest due first. */
  due(companyId: string, now: Date, limit: number): Promise<Enrollment[]>;
  /** Due enrollments of the company's live sequences that have taken no step yet (new runs), the longest due first. */
  dueNew(companyId: string, now: Date, limit: number): Promise<Enrollment[]>;
  /** Companies with due enrollments on live sequences. */
  companiesWithDue(now: Date, limit: number): Promise<string[]>;
  /**
   * Moves the enrollment on from its `stepCount`, recording the step, in one transaction: false
   * (and nothing written) when another run moved it first.
   */
  advance(enrollment: Enrollment, next: EnrollmentState, step: StepRecord): Promise<boolean>;
  /** The recorded steps of an enrollment, in order. */
  steps(companyId: string, enrollmentId: string): Promise<Array<StepRecord & { readonly stepNumber: number }>>;
  isListMember(companyId: string, listId: string, subscriberId: string): Promise<boolean>;
  /**
   * Moves the sequence's running enrollments at `relocation.fromNodeIds` (only these, when
   * `enrollmentIds` is given) in one statement: each goes on at once at the destination step, or
   * ends there `completed`; its step count goes up, so a run that read it before cannot move it
   * on afterwards. Returns those moved.
   */
  move(companyId: string, sequenceId: string, relocation: Relocation, change: MoveChange, enrollmentIds?: readonly string[]): Promise<MovedEnrollment[]>;
  /** How many of the sequence's enrollments the move endpoint moved since `since`. */
  movedSince(companyId: string, sequenceId: string, since: Date): Promise<number>;
  /**
   * Cancels the sequence's running enrollments (of these contacts, or all; with `enrollmentKeys`,
   * only those entered for these matching_field values) in one statement; each one's step count
   * goes up, so a run that read it before cannot move it on afterwards. Returns how many were cancelled.
   */
  cancelRunning(
    companyId: string,
    sequenceId: string,
    subscriberIds: readonly string[] | null,
    change: { readonly reason: string; readonly keepEntryKey: boolean; readonly at: Date; readonly enrollmentKeys?: readonly string[] },
  ): Promise<number>;
}
export const EnrollmentRepository = token<EnrollmentRepository>("lifecycle.EnrollmentRepository");
