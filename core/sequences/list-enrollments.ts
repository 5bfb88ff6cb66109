import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { offsetPagination, type OffsetPagination } from "../shared/offset-pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import { ENROLLMENT_NOT_FOUND, ENROLLMENT_STATUSES, RUNNING_STATUSES, type EnrollmentStatus } from "./enrollment.js";
import type { ListEnrollmentsQuery } from "./enrollment-commands.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { toEnrollmentView, type EnrollmentView } from "./enrollment-view.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";

export interface EnrollmentListAnswer {
  readonly sequenceId: string;
  readonly sequenceName: string;
  readonly statuses: EnrollmentStatus[];
  readonly stopCondition: Readonly<Record<string, unknown>>;
  readonly stopConditionMatchEvaluatedCount: number;
  readonly pagination: OffsetPagination;
  readonly enrollments: EnrollmentView[];
}

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
  ) {}

  execute = async (actor: Actor, sequenceId: string, query: ListEnrollmentsQuery): Promise<Result<EnrollmentListAnswer>> => {
    const named = commaList(query.status);
    const unknown = named.filter((status) => !(ENROLLMENT_STATUSES as readonly string[]).includes(status));
    if (unknown.length > 0) return fail(badRequest(`status: unknown enrollment status '${unknown[0]}' (one of ${ENROLLMENT_STATUSES.join(", ")})`));
    const subscriberIds = commaList(query.subscriberId);
    if (subscriberIds.length > 500) return fail(badRequest("subscriberId: at most 500 IDs"));
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
    return ok({
      sequenceId: sequence.id,
      sequenceName: sequence.name,
      statuses,
      stopCondition: sequence.stopCondition ? { ...sequence.stopCondition } : NO_STOP_CONDITION,
      // Stop conditions do not run on this server yet (enable refuses them): none is evaluated.
      stopConditionMatchEvaluatedCount: 0,
      pagination: offsetPagination(limit, offset, page.enrollments.length, page.total),
      enrollments: page.enrollments.map((enrollment) => toEnrollmentView(sequence, enrollment)),
    });
  };

  get = async (actor: Actor, sequenceId: string, enrollmentId: string): Promise<Result<EnrollmentView>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const enrollment = await this.enrollments.find(actor.companyId, sequenceId, enrollmentId);
    return enrollment ? ok(toEnrollmentView(sequence, enrollment)) : fail(ENROLLMENT_NOT_FOUND);
  };
}
