import * as t from "io-ts";
import type { Knex } from "knex";
import type { Clock } from "../../../core/ports/clock.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import type { JobRequest } from "../../../core/ports/job-queue.js";
import { REALIGNMENT_STATUSES, type Realignment } from "../../../core/sequences/realignment.js";
import type { RealignmentRepository } from "../../../core/sequences/realignment-ports.js";
import { nullable, oneOf } from "../../../core/shared/codecs.js";
import { announceJobs, newJobRow } from "../knex-job-queue.js";
import { DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const Counts = t.type({
  scannedCount: t.number,
  realignedCount: t.number,
  unchangedCount: t.number,
  unchangedReasons: t.record(t.string, t.number),
  requeueFailedCount: t.number,
});

const RealignmentRow = t.type({
  id: t.string,
  company_id: t.string,
  sequence_id: t.string,
  status: oneOf(REALIGNMENT_STATUSES),
  node_ids: nullable(dbJson(t.array(t.string))),
  subscriber_ids: nullable(dbJson(t.array(t.string))),
  cursor: nullable(t.string),
  result: dbJson(Counts),
  error: nullable(t.string),
  created_at: DbDate,
  updated_at: DbDate,
  finished_at: DbNullableDate,
});

function toRealignment(row: unknown): Realignment {
  const r = decodeRow(RealignmentRow, row, "sequence_realignments");
  return {
    id: r.id,
    companyId: r.company_id,
    sequenceId: r.sequence_id,
    status: r.status,
    nodeIds: r.node_ids,
    subscriberIds: r.subscriber_ids,
    cursor: r.cursor,
    result: r.result,
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
  };
}

const progress = (realignment: Realignment) => ({
  status: realignment.status,
  cursor: realignment.cursor,
  result: JSON.stringify(realignment.result),
  error: realignment.error,
  updated_at: toDbDate(realignment.updatedAt),
  finished_at: toDbDate(realignment.finishedAt),
});

/** `sequence_realignments` (migration 0043); a realignment's job is queued in the transaction that stores it. */
export class KnexRealignmentRepository implements RealignmentRepository {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async insert(realignment: Realignment, job: JobRequest): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("sequence_realignments").insert({
        id: realignment.id,
        company_id: realignment.companyId,
        sequence_id: realignment.sequenceId,
        node_ids: realignment.nodeIds ? JSON.stringify(realignment.nodeIds) : null,
        subscriber_ids: realignment.subscriberIds ? JSON.stringify(realignment.subscriberIds) : null,
        created_at: toDbDate(realignment.createdAt),
        ...progress(realignment),
      });
      await trx("jobs").insert(newJobRow(job, this.ids.next("job"), this.clock.now()));
    });
    await announceJobs(this.knex, [job.type]);
  }

  async find(companyId: string, sequenceId: string, realignmentId: string): Promise<Realignment | null> {
    const row: unknown = await this.knex("sequence_realignments").where({ company_id: companyId, sequence_id: sequenceId, id: realignmentId }).first();
    return row ? toRealignment(row) : null;
  }

  async save(realignment: Realignment): Promise<void> {
    await this.knex("sequence_realignments").where({ company_id: realignment.companyId, id: realignment.id }).update(progress(realignment));
  }
}
