import type { Knex } from "knex";
import type { SegmentDefinition } from "../../../core/segments/ports.js";
import type { SegmentWatches } from "../../../core/sequences/trigger-ports.js";
import { segmentMembersQuery, segmentQuery } from "../knex-segment-evaluator.js";
import { toDbDate } from "../row-codecs.js";

/** `sequence_segment_watches` and `sequence_segment_members` (migration 0029). */
export class KnexSegmentWatches implements SegmentWatches {
  constructor(private readonly knex: Knex) {}

  async find(companyId: string, sequenceId: string): Promise<{ segmentId: string; seeded: boolean } | null> {
    const row: { segment_id: string; seeded_at: unknown } | undefined = await this.knex("sequence_segment_watches")
      .where({ company_id: companyId, sequence_id: sequenceId })
      .first("segment_id", "seeded_at");
    return row ? { segmentId: row.segment_id, seeded: row.seeded_at !== null } : null;
  }

  async restart(companyId: string, sequenceId: string, segmentId: string): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("sequence_segment_members").where({ company_id: companyId, sequence_id: sequenceId }).delete();
      await trx("sequence_segment_watches").where({ company_id: companyId, sequence_id: sequenceId }).delete();
      await trx("sequence_segment_watches").insert({ sequence_id: sequenceId, company_id: companyId, segment_id: segmentId, seeded_at: null });
    });
  }

  async markSeeded(companyId: string, sequenceId: string, at: Date): Promise<void> {
    await this.knex("sequence_segment_watches")
      .where({ company_id: companyId, sequence_id: sequenceId })
      .update({ seeded_at: toDbDate(at) });
  }

  async takeEntered(sequenceId: string, definition: SegmentDefinition, limit: number, at: Date): Promise<string[]> {
    const rows: Array<{ id: string }> = await segmentQuery(this.knex, definition)
      .whereNotExists((remembered) =>
        remembered.select(this.knex.raw("1")).from("sequence_segment_members as m").where("m.sequence_id", sequenceId).whereRaw("m.subscriber_id = s.id"),
      )
      .orderBy("s.id")
      .limit(limit)
      .select("s.id");
    if (rows.length === 0) return [];
    const enteredAt = toDbDate(at);
    await this.knex("sequence_segment_members")
      .insert(rows.map((row) => ({ sequence_id: sequenceId, subscriber_id: row.id, company_id: definition.companyId, entered_at: enteredAt })))
      .onConflict(["sequence_id", "subscriber_id"])
      .ignore();
    return rows.map((row) => row.id);
  }

  async takeExited(sequenceId: string, definition: SegmentDefinition, limit: number): Promise<string[]> {
    const gone: string[] = await this.knex("sequence_segment_members")
      .where({ company_id: definition.companyId, sequence_id: sequenceId })
      .whereNotIn("subscriber_id", segmentMembersQuery(this.knex, definition))
      .orderBy("subscriber_id")
      .limit(limit)
      .pluck("subscriber_id");
    if (gone.length > 0) await this.knex("sequence_segment_members").where({ sequence_id: sequenceId }).whereIn("subscriber_id", gone).delete();
    return gone;
  }
}
