import * as t from "io-ts";
import type { Knex } from "knex";
import { COMPLETION_NODE, RUNNABLE_NODE_TYPES, SEQUENCE_STATUSES, TRIGGER_NODE, type Sequence } from "../../../core/sequences/model.js";
import type { MoveChange, Relocation } from "../../../core/sequences/enrollment-ports.js";
import type { References, SequenceFilter, SequenceRepository } from "../../../core/sequences/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbBoolean, DbDate, DbInteger, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { relocateEnrollments } from "./enrollment-relocation.js";

const StoredNode = t.type({
  id: t.string,
  nodeType: oneOf([TRIGGER_NODE, COMPLETION_NODE, ...RUNNABLE_NODE_TYPES]),
  config: t.UnknownRecord,
  position: t.type({ x: t.number, y: t.number }),
  updatedAt: t.string,
});
const StoredEdge = t.intersection([t.type({ sourceNodeId: t.string, targetNodeId: t.string }), t.partial({ condition: t.string })]);
const NullableText = t.union([t.string, t.null]);
const NullableObject = t.union([t.UnknownRecord, t.null]);

const SequenceRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  description: NullableText,
  status: oneOf(SEQUENCE_STATUSES),
  enrollment_paused: DbBoolean,
  trigger: t.string,
  trigger_config: dbJson(t.UnknownRecord),
  labels: dbJson(t.array(t.string)),
  user_cancellable: DbBoolean,
  bcc_emails: dbJson(t.array(t.string)),
  sender_profile_id: NullableText,
  from_email: NullableText,
  from_name: NullableText,
  reply_profile_id: NullableText,
  reply_to_email: NullableText,
  reply_to_name: NullableText,
  enrollment_mode: oneOf(["unlimited", "one_time", "matching_field"] as const),
  enrollment_field_path: NullableText,
  sending_window: t.union([t.null, dbJson(NullableObject)]),
  stop_condition: t.union([t.null, dbJson(NullableObject)]),
  nodes: dbJson(t.array(StoredNode)),
  edges: dbJson(t.array(StoredEdge)),
  graph_revision: DbInteger,
  created_at: DbDate,
  updated_at: DbDate,
});

export function toSequence(row: unknown): Sequence {
  const r = decodeRow(SequenceRow, row, "sequences");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    description: r.description,
    status: r.status,
    enrollmentPaused: r.enrollment_paused,
    trigger: r.trigger,
    triggerConfig: r.trigger_config,
    labels: r.labels,
    userCancellable: r.user_cancellable,
    bccEmails: r.bcc_emails,
    senderProfileId: r.sender_profile_id,
    fromEmail: r.from_email,
    fromName: r.from_name,
    replyProfileId: r.reply_profile_id,
    replyToEmail: r.reply_to_email,
    replyToName: r.reply_to_name,
    enrollmentMode: r.enrollment_mode,
    enrollmentFieldPath: r.enrollment_field_path,
    sendingWindow: r.sending_window,
    stopCondition: r.stop_condition,
    graph: { nodes: r.nodes.map((node) => ({ ...node, updatedAt: new Date(node.updatedAt) })), edges: r.edges },
    graphRevision: r.graph_revision,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** Every column but the keys and created_at. */
const columns = (sequence: Sequence) => ({
  name: sequence.name,
  description: sequence.description,
  status: sequence.status,
  enrollment_paused: sequence.enrollmentPaused,
  trigger: sequence.trigger,
  trigger_config: json(sequence.triggerConfig),
  labels: json(sequence.labels),
  user_cancellable: sequence.userCancellable,
  bcc_emails: json(sequence.bccEmails),
  sender_profile_id: sequence.senderProfileId,
  from_email: sequence.fromEmail,
  from_name: sequence.fromName,
  reply_profile_id: sequence.replyProfileId,
  reply_to_email: sequence.replyToEmail,
  reply_to_name: sequence.replyToName,
  enrollment_mode: sequence.enrollmentMode,
  enrollment_field_path: sequence.enrollmentFieldPath,
  sending_window: json(sequence.sendingWindow),
  stop_condition: json(sequence.stopCondition),
  nodes: json(sequence.graph.nodes.map((node) => ({ ...node, updatedAt: node.updatedAt.toISOString() }))),
  edges: json(sequence.graph.edges),
  graph_revision: sequence.graphRevision,
  updated_at: toDbDate(sequence.updatedAt),
});

const labelRows = (sequence: Sequence) => sequence.labels.map((label) => ({ company_id: sequence.companyId, sequence_id: sequence.id, label }));

const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class KnexSequenceRepository implements SequenceRepository {
  constructor(private readonly knex: Knex) {}

  async insert(sequence: Sequence): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("sequences").insert({ id: sequence.id, company_id: sequence.companyId, ...columns(sequence), created_at: toDbDate(sequence.createdAt) });
      if (sequence.labels.length > 0) await trx("sequence_labels").insert(labelRows(sequence));
    });
  }

  async find(companyId: string, sequenceId: string): Promise<Sequence | null> {
    const row = await this.knex("sequences").where({ company_id: companyId, id: sequenceId }).first();
    return row ? toSequence(row) : null;
  }

  async list(companyId: string, filter: SequenceFilter): Promise<{ sequences: Sequence[]; total: number }> {
    const matching = this.knex("sequences").where("sequences.company_id", companyId);
    if (filter.status) matching.andWhere("sequences.status", filter.status);
    if (filter.search) matching.andWhereRaw("lower(sequences.name) like ? escape '\\'", [likePattern(filter.search)]);
    if (filter.labels)
      matching.whereExists(
        this.knex("sequence_labels")
          .whereRaw("sequence_labels.sequence_id = sequences.id")
          .andWhere("sequence_labels.company_id", companyId)
          .whereIn("sequence_labels.label", [...filter.labels]),
      );
    const [counted] = await matching.clone().count({ total: "*" });
    const page = matching.clone().orderBy([
      { column: "sequences.created_at", order: "desc" },
      { column: "sequences.id", order: "desc" },
    ]);
    if (filter.limit !== null) page.limit(filter.limit);
    if (filter.offset > 0) page.offset(filter.offset);
    const rows = await page.select("sequences.*");
    return { sequences: rows.map(toSequence), total: Number(counted?.total ?? 0) };
  }

  async takingEntries(companyId: string, triggers: readonly string[]): Promise<Sequence[]> {
    const rows = await this.knex("sequences")
      .where({ company_id: companyId, status: "active", enrollment_paused: false })
      .whereIn("trigger", [...triggers]);
    return rows.map(toSequence);
  }

  async update(sequence: Sequence, expectedRevision: number): Promise<boolean> {
    return this.knex.transaction((trx) => this.save(trx, sequence, expectedRevision));
  }

  private async save(trx: Knex.Transaction, sequence: Sequence, expectedRevision: number): Promise<boolean> {
    const changed = await trx("sequences")
      .where({ company_id: sequence.companyId, id: sequence.id, graph_revision: expectedRevision })
      .update(columns(sequence));
    if (changed === 0) return false;
    await trx("sequence_labels").where({ sequence_id: sequence.id }).delete();
    if (sequence.labels.length > 0) await trx("sequence_labels").insert(labelRows(sequence));
    return true;
  }

  async updateGraph(
    sequence: Sequence,
    expectedRevision: number,
    relocations: readonly Relocation[],
    change: MoveChange,
  ): Promise<{ readonly migrated: number; readonly completed: number } | null> {
    return this.knex.transaction(async (trx) => {
      if (!(await this.save(trx, sequence, expectedRevision))) return null;
      const counts = { migrated: 0, completed: 0 };
      for (const relocation of relocations) {
        const moved = (await relocateEnrollments(trx, sequence.companyId, sequence.id, relocation, change)).length;
        if (relocation.completes) counts.completed += moved;
        else counts.migrated += moved;
      }
      return counts;
    });
  }

  async delete(companyId: string, sequenceId: string): Promise<boolean> {
    return (await this.knex("sequences").where({ company_id: companyId, id: sequenceId }).delete()) > 0;
  }

  async unknownReferences(companyId: string, references: References): Promise<References> {
    const unknown = async (table: string, ids: readonly string[]): Promise<string[]> => {
      if (ids.length === 0) return [];
      const owned = new Set(
        await this.knex(table)
          .where({ company_id: companyId })
          .whereIn("id", [...ids])
          .pluck("id"),
      );
      return ids.filter((id) => !owned.has(id));
    };
    return {
      listIds: await unknown("lists", references.listIds),
      segmentIds: await unknown("segments", references.segmentIds),
      tagIds: await unknown("tags", references.tagIds),
      senderProfileIds: await unknown("sender_profiles", references.senderProfileIds),
      replyProfileIds: await unknown("reply_profiles", references.replyProfileIds),
    };
  }
}
