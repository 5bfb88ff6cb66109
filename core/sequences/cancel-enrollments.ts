import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { RUNNING_STATUSES } from "./enrollment.js";
import { keepsEntryKey } from "./entry-key.js";
import type { CancelEnrollmentsCommand } from "./enrollment-commands.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { toEnrollmentView, type EnrollmentView } from "./enrollment-view.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";

/** Enrollments shown in a cancel answer, at most. */
const SHOWN = 50;

export interface CancelAnswer {
  readonly sequenceId: string;
  readonly dryRun: boolean;
  readonly target: { readonly mode: "all" | "subscriber" | "subscribers" | "field"; readonly notFoundSubscriberIds: string[] };
  readonly matchedCount: number;
  readonly cancelledCount: number;
  readonly remainingCount: number;
  readonly enrollments: EnrollmentView[];
  readonly hasMore: boolean;
}

/**
 * POST /sequences/{id}/enrollments/cancel: stops running enrollments (active or waiting) of one
 * contact, of several, all of them, or, on a matching_field sequence, those entered for some
 * values of its field (`fieldValues`, with `fieldPath` naming that field if given). A bulk target
 * (cancelAll, subscriberIds, fieldValues) is a dry run unless `dryRun: false`: it says what would
 * be cancelled and changes nothing.
 */
export class CancelEnrollments {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly enrollments: EnrollmentRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, input: CancelEnrollmentsCommand): Promise<Result<CancelAnswer>> => {
    const targets = [input.cancelAll === true, input.subscriberId !== undefined, input.subscriberIds !== undefined, input.fieldValues !== undefined];
    if (targets.filter(Boolean).length !== 1) return fail(badRequest("Give exactly one of cancelAll: true, subscriberId, subscriberIds or fieldValues"));
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const keys = input.fieldValues ? [...new Set(input.fieldValues)] : undefined;
    if (keys && sequence.enrollmentMode !== "matching_field")
      return fail(badRequest("fieldValues: the sequence's enrollments are told apart by contact (enrollmentMode is not matching_field); give subscriberIds"));
    if (keys && input.fieldPath !== undefined && input.fieldPath !== sequence.enrollmentFieldPath)
      return fail(badRequest(`fieldPath: the sequence's enrollments are told apart by ${sequence.enrollmentFieldPath}, not ${input.fieldPath}`));

    const mode = input.cancelAll ? "all" : input.subscriberId !== undefined ? "subscriber" : keys ? "field" : "subscribers";
    const named = input.subscriberId !== undefined ? [input.subscriberId] : input.subscriberIds ? [...new Set(input.subscriberIds)] : null;
    const notFoundSubscriberIds: string[] = [];
    for (const id of named ?? []) if (!(await this.subscribers.findById(actor.companyId, id))) notFoundSubscriberIds.push(id);
    const dryRun = input.dryRun ?? mode !== "subscriber";

    const filter = {
      statuses: [...RUNNING_STATUSES],
      subscriberIds: named ?? undefined,
      enrollmentKeys: keys,
      sort: "enrolled_at_asc" as const,
      limit: SHOWN,
      offset: 0,
    };
    const matched = await this.enrollments.list(actor.companyId, sequenceId, filter);
    const now = this.clock.now();
    const cancelledCount = dryRun
      ? 0
      : await this.enrollments.cancelRunning(actor.companyId, sequenceId, named, {
          reason: input.reason ?? "cancelled through the API",
          keepEntryKey: keepsEntryKey(sequence),
          at: now,
          ...(keys ? { enrollmentKeys: keys } : {}),
        });
    const shown = matched.enrollments.map((enrollment) =>
      toEnrollmentView(
        sequence,
        dryRun
          ? enrollment
          : {
              ...enrollment,
              status: "cancelled",
              dueAt: null,
              waitUntil: null,
              finishedAt: now,
              updatedAt: now,
              failedReason: input.reason ?? "cancelled through the API",
            },
      ),
    );
    return ok({
      sequenceId: sequence.id,
      dryRun,
      target: { mode, notFoundSubscriberIds },
      matchedCount: matched.total,
      cancelledCount,
      remainingCount: dryRun ? matched.total : Math.max(0, matched.total - cancelledCount),
      enrollments: shown,
      hasMore: matched.total > shown.length,
    });
  };
}
