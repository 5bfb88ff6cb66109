import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { offsetPagination, type OffsetPagination } from "../shared/offset-pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import { ENROLLMENT_NOT_FOUND, ENROLLMENT_STATUSES, RUNNING_STATUSES, type EnrollmentStatus } from "./enrollment.js";
import type { ListEnrollmentsQuery } from "./enrollment-commands.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import type { EnrollmentWithContact } from "./enrollment-ports.js";
import { toEnrollmentView, type EnrollmentView, type StopConditionMatch } from "./enrollment-view.js";
import { SEQUENCE_NOT_FOUND, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { StopConditions } from "./stop-conditions.js";

export interface EnrollmentListAnswer {
  readonly sequenceId: string;
  readonly sequenceName: string;
  readonly statuses: EnrollmentStatus[];
  readonly stopCondition: Readonly<Record<string, unknown>>;
  readonly stopConditionMatchEvaluatedCount: number;
  readonly pagination: OffsetPagination;
  readonly enrollments: EnrollmentView[];
}

/** Enrollments listed at most when each is checked against the stop condition (compat-reference §10). */
const MAX_MATCHED = 100;

/** No stop condition, as an object (the official client reads `stopCondition` as one). */
const NO_STOP_CONDITION = { type: "none", value: null, matchConfig: null };

const commaList = (value: string | undefined): string[] =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** GET /sequences/{id}/enrollments (compat filters and sorts) and GET .../enrollments/{enrollmentId}. */
export class ListEnrollments {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly enrollments: EnrollmentRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly stopConditions: StopConditions,
  ) {}

  execute = async (actor: Actor, sequenceId: string, query: ListEnrollmentsQuery): Promise<Result<EnrollmentListAnswer>> => {
    const named = commaList(query.status);
    const unknown = named.filter((status) => !(ENROLLMENT_STATUSES as readonly string[]).includes(status));
    if (unknown.length > 0) return fail(badRequest(`status: unknown enrollment status '${unknown[0]}' (one of ${ENROLLMENT_STATUSES.join(", ")})`));
    const subscriberIds = commaList(query.subscriberId);
    if (subscriberIds.length > 500) return fail(badRequest("subscriberId: at most 500 IDs"));
    if (query.stopConditionMatch && (query.limit ?? 50) > MAX_MATCHED) return fail(badRequest(`limit: at most ${MAX_MATCHED} with stopConditionMatch`));
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const statuses = named.length > 0 ? [...new Set(named as EnrollmentStatus[])] : [...RUNNING_STATUSES];
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const page = await this.enrollments.list(actor.companyId, sequenceId, {
      statuses,
      subscriberIds: subscriberIds.length > 0 ? subscriberIds : undefined,
      email: query.email,
      currentNodeId: query.currentNodeId,
      sort: query.sort ?? "enrolled_at_desc",
      limit,
      offset,
    });
    const evaluate = query.stopConditionMatch === true && sequence.stopCondition !== null && sequence.stopCondition.type !== "none";
    const matches: Array<StopConditionMatch | null> = [];
    for (const enrollment of page.enrollments) matches.push(evaluate ? await this.match(sequence, enrollment) : null);
    return ok({
      sequenceId: sequence.id,
      sequenceName: sequence.name,
      statuses,
      stopCondition: sequence.stopCondition ? { ...sequence.stopCondition } : NO_STOP_CONDITION,
      stopConditionMatchEvaluatedCount: matches.filter((match) => match !== null).length,
      pagination: offsetPagination(limit, offset, page.enrollments.length, page.total),
      enrollments: page.enrollments.map((enrollment, index) => toEnrollmentView(sequence, enrollment, matches[index] ?? null)),
    });
  };

  /** The stop condition checked now as the engine would before the enrollment's next step (a baseline not taken yet: no match). */
  private async match(sequence: Sequence, enrollment: EnrollmentWithContact): Promise<StopConditionMatch | null> {
    const contact = await this.subscribers.findById(enrollment.companyId, enrollment.subscriberId);
    if (!contact) return null;
    const check = await this.stopConditions.check(sequence, enrollment, contact);
    return { matches: check.reason !== null, reason: check.reason };
  }

  get = async (actor: Actor, sequenceId: string, enrollmentId: string): Promise<Result<EnrollmentView>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const enrollment = await this.enrollments.find(actor.companyId, sequenceId, enrollmentId);
    return enrollment ? ok(toEnrollmentView(sequence, enrollment)) : fail(ENROLLMENT_NOT_FOUND);
  };
}
