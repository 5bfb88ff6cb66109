import * as t from "io-ts";
import type { Knex } from "knex";
import { JoinOperatorCodec, StoredFilterGroup } from "../../../core/segments/commands.js";
import type { Segment } from "../../../core/segments/model.js";
import type { SegmentRepository } from "../../../core/segments/ports.js";
import { DbDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const SegmentRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  format: t.keyof({ flat: null, nested: null }),
  filter_join_operator: JoinOperatorCodec,
  root: dbJson(StoredFilterGroup),
  created_at: DbDate,
  updated_at: DbDate,
});

function toSegment(row: unknown): Segment {
  const r = decodeRow(SegmentRow, row, "segments");
  return { id: r.id, companyId: r.company_id, name: r.name, format: r.format, root: r.root, createdAt: r.created_at, updatedAt: r.updated_at };
}

/** Writable columns; `filter_join_operator` mirrors the root group's for readers of the table. */
const columns = (segment: Segment) => ({
  name: segment.name,
  format: segment.format,
  filter_join_operator: segment.root.joinOperator,
  root: JSON.stringify(segment.root),
  updated_at: toDbDate(segment.updatedAt),
});

/** Lookups of many IDs go in chunks, within every dialect's limit on bound parameters. */
const CHUNK = 500;

export class KnexSegmentRepository implements SegmentRepository {
  constructor(private readonly knex: Knex) {}

  async insert(segment: Segment): Promise<void> {
    await this.knex("segments").insert({ id: segment.id, company_id: segment.companyId, ...columns(segment), created_at: toDbDate(segment.createdAt) });
  }

  async update(segment: Segment): Promise<boolean> {
    const changed = await this.knex("segments").where({ company_id: segment.companyId, id: segment.id }).update(columns(segment));
    return changed > 0;
  }

  async delete(companyId: string, segmentId: string): Promise<boolean> {
    return (await this.knex("segments").where({ company_id: companyId, id: segmentId }).delete()) > 0;
  }

  async find(companyId: string, segmentId: string): Promise<Segment | null> {
    const row = await this.knex("segments").where({ company_id: companyId, id: segmentId }).first();
    return row ? toSegment(row) : null;
  }

  async list(companyId: string): Promise<Segment[]> {
    const rows = await this.knex("segments")
      .where({ company_id: companyId })
      .orderBy([{ column: "created_at" }, { column: "id" }]);
    return rows.map(toSegment);
  }

  async findMany(companyId: string, segmentIds: readonly string[]): Promise<Segment[]> {
    const found: Segment[] = [];
    for (let start = 0; start < segmentIds.length; start += CHUNK) {
      const rows = await this.knex("segments")
        .where({ company_id: companyId })
        .whereIn("id", segmentIds.slice(start, start + CHUNK));
      found.push(...rows.map(toSegment));
    }
    return found;
  }

  async ownedListIds(companyId: string, listIds: readonly string[]): Promise<string[]> {
    const owned: string[] = [];
    for (let start = 0; start < listIds.length; start += CHUNK) {
      const rows: Array<{ id: string }> = await this.knex("lists")
        .where({ company_id: companyId })
        .whereIn("id", listIds.slice(start, start + CHUNK))
        .select("id");
      owned.push(...rows.map((row) => row.id));
    }
    return owned;
  }
}
