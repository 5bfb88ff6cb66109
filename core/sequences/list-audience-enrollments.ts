import * as t from "io-ts";
import type { Actor } from "../shared/actor.js";
import { IsoDate, TrimmedNonEmpty } from "../shared/codecs.js";
import { paginationOf, readCursorPage, type Pagination } from "../shared/pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import { AUDIENCE_ENROLLMENT_NOT_FOUND } from "./audience-enrollment.js";
import type { ListAudienceEnrollmentsQuery } from "./audience-enrollment-commands.js";
import type { AudienceEnrollmentRepository } from "./audience-enrollment-ports.js";
import { toAudienceEnrollmentView, type AudienceEnrollmentView } from "./audience-enrollment-view.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";

export interface AudienceEnrollmentListing {
  readonly audienceEnrollments: readonly AudienceEnrollmentView[];
  readonly pagination: Pagination;
}

/** A cursor's position: the last run shown (its creation time and ID). */
const RunPosition = t.type({ c: IsoDate, i: TrimmedNonEmpty });

/** GET .../audience-enrollments (newest first, decisions.md cursor pagination) and GET .../{runId}. */
export class ListAudienceEnrollments {
  constructor(
    private readonly runs: AudienceEnrollmentRepository,
    private readonly sequences: SequenceRepository,
  ) {}

  execute = async (actor: Actor, sequenceId: string, query: ListAudienceEnrollmentsQuery): Promise<Result<AudienceEnrollmentListing>> => {
    const page = readCursorPage(query, RunPosition);
    if (page._tag === "Left") return page;
    const { limit, after } = page.right;
    if (!(await this.sequences.find(actor.companyId, sequenceId))) return fail(SEQUENCE_NOT_FOUND);
    const rows = await this.runs.list(actor.companyId, sequenceId, { limit: limit + 1, before: after && { createdAt: after.c, id: after.i } });
    const audienceEnrollments = rows.slice(0, limit).map(toAudienceEnrollmentView);
    return ok({
      audienceEnrollments,
      pagination: paginationOf(limit, rows.length > limit, audienceEnrollments.at(-1), (last) => ({ c: last.createdAt, i: last.id })),
    });
  };

  get = async (actor: Actor, sequenceId: string, runId: string): Promise<Result<AudienceEnrollmentView>> => {
    const run = await this.runs.find(actor.companyId, sequenceId, runId);
    return run ? ok(toAudienceEnrollmentView(run)) : fail(AUDIENCE_ENROLLMENT_NOT_FOUND);
  };
}
