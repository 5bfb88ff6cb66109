import * as t from "io-ts";
import type { Knex } from "knex";
import { DELIVER_WEBHOOK_JOB } from "../../../core/webhooks/delivery-job.js";
import { subscriberWebhookEvent } from "../../../core/webhooks/event-data.js";
import type { WebhookEventType } from "../../../core/webhooks/model.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { publishMembershipEvents, type MembershipChange } from "../list-membership-events.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import type { JobRequest } from "../../../core/ports/job-queue.js";
import { nullable, oneOf } from "../../../core/shared/codecs.js";
import { IMPORT_STATUSES, type SubscriberImport } from "../../../core/subscriber-imports/model.js";
import type { ContactWrite } from "../../../core/subscriber-imports/plan-chunk.js";
import type { ImportStepWork, NewJoins, StoredChunk, SubscriberImportRepository } from "../../../core/subscriber-imports/ports.js";
import { DUPLICATE_STRATEGIES, OPT_IN_MODES, type Subscriber } from "../../../core/subscribers/model.js";
import { isPostgres } from "../connection.js";
import { announceJobs, newJobRow } from "../knex-job-queue.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { subscriberColumns, toSubscriber } from "./subscriber-repository.js";
import { isUniqueViolation } from "../unique-violation.js";

type Db = Knex | Knex.Transaction;

const Counts = t.record(t.string, t.number);

const ImportRow = t.type({
  id: t.string,
  company_id: t.string,
  status: oneOf(IMPORT_STATUSES),
  file_name: nullable(t.string),
  request_key: nullable(t.string),
  options: dbJson(
    t.type({
      duplicateStrategy: oneOf(DUPLICATE_STRATEGIES),
      listIds: t.array(t.string),
      enrollInSequences: t.boolean,
      optInMode: oneOf(OPT_IN_MODES),
    }),
  ),
  total_rows: DbInteger,
  email_count: DbInteger,
  duplicate_rows: DbInteger,
  processed_count: DbInteger,
  added_count: DbInteger,
  updated_count: DbInteger,
  skipped_count: DbInteger,
  failed_count: DbInteger,
  chunk_count: DbInteger,
  processed_chunks: DbInteger,
  skipped_reasons: dbJson(Counts),
  failed_reasons: dbJson(Counts),
  failed_chunk_reasons: dbJson(Counts),
  error: nullable(t.string),
  created_at: DbDate,
  updated_at: DbDate,
  completed_at: DbNullableDate,
});

function toImport(row: unknown): SubscriberImport {
  const r = decodeRow(ImportRow, row, "subscriber_imports");
  return {
    id: r.id,
    companyId: r.company_id,
    status: r.status,
    fileName: r.file_name,
    requestKey: r.request_key,
    options: r.options,
    totalRows: r.total_rows,
    emailCount: r.email_count,
    duplicateRows: r.duplicate_rows,
    processedCount: r.processed_count,
    addedCount: r.added_count,
    updatedCount: r.updated_count,
    skippedCount: r.skipped_count,
    failedCount: r.failed_count,
    chunkCount: r.chunk_count,
    processedChunks: r.processed_chunks,
    skippedReasons: r.skipped_reasons,
    failedReasons: r.failed_reasons,
    failedChunkReasons: r.failed_chunk_reasons,
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
  };
}

/** The columns a step writes: status, counters and reasons. */
const progressColumns = (i: SubscriberImport) => ({
  status: i.status,
  total_rows: i.totalRows,
  email_count: i.emailCount,
  duplicate_rows: i.duplicateRows,
  processed_count: i.processedCount,
  added_count: i.addedCount,
  updated_count: i.updatedCount,
  skipped_count: i.skippedCount,
  failed_count: i.failedCount,
  chunk_count: i.chunkCount,
  processed_chunks: i.processedChunks,
  skipped_reasons: JSON.stringify(i.skippedReasons),
  failed_reasons: JSON.stringify(i.failedReasons),
  failed_chunk_reasons: JSON.stringify(i.failedChunkReasons),
  error: i.error,
  updated_at: toDbDate(i.updatedAt),
  completed_at: toDbDate(i.completedAt),
});

const ChunkRows = dbJson(t.array(t.type({ data: t.unknown, duplicate: t.boolean })));
const StoredChunkRow = t.type({ chunk: DbInteger, rows: ChunkRows });

/** Bound parameters per statement: under SQLite's 32,766 and Postgres's 65,535. */
const MAX_PARAMETERS = 30_000;

/**
 * One multi-row INSERT per batch of rows, written as plain VALUES lists (SQLite and Postgres
 * both take them; knex's SQLite builder would write a compound SELECT capped at 500 rows), with
 * ON CONFLICT DO NOTHING when `conflict` names the unique columns.
 */
async function insertRows(db: Db, table: string, columns: readonly string[], rows: readonly (readonly unknown[])[], conflict?: string): Promise<void> {
  if (rows.length === 0) return;
  const head = `insert into ${table} (${columns.join(", ")}) values `;
  const tail = conflict ? ` on conflict (${conflict}) do nothing` : "";
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const end = Math.min(rows.length, start + perStatement);
    const bindings: unknown[] = [];
    for (let i = start; i < end; i++) for (const value of rows[i]!) bindings.push(value);
    await db.raw(head + tuplesOf(tuple, end - start) + tail, bindings as Knex.RawBinding[]);
  }
}

/** `(?, ?), (?, ?), ...` for `count` rows: the same few strings serve every chunk. */
const tupleLists = new Map<string, string>();
function tuplesOf(tuple: string, count: number): string {
  const key = `${count}${tuple}`;
  let list = tupleLists.get(key);
  if (list === undefined) {
    list = new Array<string>(count).fill(tuple).join(", ");
    if (tupleLists.size > 100) tupleLists.clear();
    tupleLists.set(key, list);
  }
  return list;
}

const SUBSCRIBER_COLUMNS = [
  "id",
  "company_id",
  "email",
  "external_id",
  "first_name",
  "last_name",
  "phone",
  "sms_status",
  "status",
  "email_provider",
  "timezone",
  "custom_attributes",
  "unsubscribed_at",
  "created_at",
  "updated_at",
] as const;

/**
 * A contact as the values of SUBSCRIBER_COLUMNS (the columns of subscriberColumns, in order).
 * Every contact of a chunk carries the same timestamps, so their text is made once.
 */
function subscriberValues(s: Subscriber, dates: (date: Date | null) => string | null): unknown[] {
  return [
    s.id,
    s.companyId,
    s.email,
    s.externalId,
    s.firstName,
    s.lastName,
    s.phone,
    s.smsStatus,
    s.status,
    s.emailProvider,
    s.timezone,
    JSON.stringify(s.customAttributes),
    dates(s.unsubscribedAt),
    dates(s.createdAt),
    dates(s.updatedAt),
  ];
}

/** toDbDate that remembers the last date it wrote. */
function dateWriter(): (date: Date | null) => string | null {
  let time = Number.NaN;
  let text: string | null = null;
  return (date) => {
    if (date === null) return null;
    if (date.getTime() !== time) {
      time = date.getTime();
      text = toDbDate(date);
    }
    return text;
  };
}

/** One step's reads and writes, all inside the transaction that locked the import. */
class KnexImportStepWork implements ImportStepWork {
  /** The types of the jobs this step queued: workers are woken once it commits. */
  readonly queuedJobTypes: string[] = [];

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly ids: IdGenerator,
    private readonly subscriberImport: SubscriberImport,
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  async nextChunk(): Promise<StoredChunk | null> {
    const row = await this.trx("subscriber_import_chunks").where({ import_id: this.subscriberImport.id, done: false }).orderBy("chunk").first("chunk", "rows");
    if (!row) return null;
    const chunk = decodeRow(StoredChunkRow, row, "subscriber_import_chunks");
    return { index: chunk.chunk, rows: chunk.rows };
  }

  async nextChunkIndex(): Promise<number | null> {
    const row = await this.trx("subscriber_import_chunks").where({ import_id: this.subscriberImport.id, done: false }).orderBy("chunk").first("chunk");
    return row ? decodeRow(t.type({ chunk: DbInteger }), row, "subscriber_import_chunks").chunk : null;
  }

  async markDone(index: number): Promise<void> {
    await this.trx("subscriber_import_chunks").where({ import_id: this.subscriberImport.id, chunk: index }).update({ done: true });
  }

  /** Two lookups, each on its unique index (an OR of both would scan the company's contacts). */
  async findContacts(emails: readonly string[], externalIds: readonly string[]): Promise<Subscriber[]> {
    const companyId = this.subscriberImport.companyId;
    const byEmail: unknown[] = emails.length > 0 ? await this.trx("subscribers").where({ company_id: companyId }).whereIn("email", emails) : [];
    const byExternalId: unknown[] =
      externalIds.length > 0 ? await this.trx("subscribers").where({ company_id: companyId }).whereIn("external_id", externalIds) : [];
    const found = new Map<string, Subscriber>();
    for (const row of [...byEmail, ...byExternalId]) {
      const subscriber = toSubscriber(row);
      found.set(subscriber.id, subscriber);
    }
    return [...found.values()];
  }

  async findNewJoins(updates: readonly ContactWrite[], listIds: readonly string[]): Promise<NewJoins> {
    const companyId = this.subscriberImport.companyId;
    const ids = updates.map((write) => write.subscriber.id);
    const members = await this.membersAmong(ids, listIds);
    const carried = new Set<string>();
    if (updates.some((write) => write.tags.length > 0)) {
      const rows: Array<{ subscriber_id: string; name: string }> = await this.trx("subscriber_tags as st")
        .join("tags as t", "t.id", "st.tag_id")
        .where("st.company_id", companyId)
        .whereIn("st.subscriber_id", ids)
        .select("st.subscriber_id", "t.name");
      for (const row of rows) carried.add(`${row.subscriber_id} ${row.name}`);
    }
    const lists = new Map<string, string[]>();
    const tags = new Map<string, string[]>();
    for (const { subscriber, tags: names } of updates) {
      const joined = listIds.filter((listId) => !members.has(`${subscriber.id} ${listId}`));
      if (joined.length > 0) lists.set(subscriber.id, joined);
      const added = names.filter((name) => !carried.has(`${subscriber.id} ${name}`));
      if (added.length > 0) tags.set(subscriber.id, added);
    }
    return { lists, tags };
  }

  /** Which of the contacts are members of which of the lists already, as "subscriberId listId". */
  private async membersAmong(subscriberIds: readonly string[], listIds: readonly string[]): Promise<Set<string>> {
    const members = new Set<string>();
    if (listIds.length === 0 || subscriberIds.length === 0) return members;
    const rows: Array<{ subscriber_id: string; list_id: string }> = await this.trx("list_memberships")
      .where({ company_id: this.subscriberImport.companyId })
      .whereIn("list_id", listIds)
      .whereIn("subscriber_id", subscriberIds)
      .select("subscriber_id", "list_id");
    for (const row of rows) members.add(`${row.subscriber_id} ${row.list_id}`);
    return members;
  }

  async writeContacts(changes: { inserts: readonly ContactWrite[]; updates: readonly ContactWrite[]; listIds: readonly string[] }, now: Date): Promise<void> {
    const { trx } = this;
    const companyId = this.subscriberImport.companyId;
    const at = toDbDate(now);
    // The memberships the chunk adds, read before it writes them, only when a webhook wants to hear of them.
    const joins = (await this.wants("subscriber.list_subscribed")) ? await this.joinsOf(changes) : [];
    // Changed contacts first: one may free an externalId a new contact of the chunk takes.
    for (const { subscriber } of changes.updates) {
      const { id, company_id, ...fields } = subscriberColumns(subscriber);
      await trx("subscribers").where({ company_id, id }).update(fields);
    }
    const dates = dateWriter();
    await insertRows(
      trx,
      "subscribers",
      SUBSCRIBER_COLUMNS,
      changes.inserts.map((write) => subscriberValues(write.subscriber, dates)),
    );

    const written = [...changes.updates, ...changes.inserts];
    const tagIds = await this.ensureTags([...new Set(written.flatMap((write) => write.tags))], at);
    for (const write of changes.updates) {
      if (!write.replaceTags) continue;
      const keep = write.tags.map((name) => tagIds.get(name)!);
      await trx("subscriber_tags").where({ company_id: companyId, subscriber_id: write.subscriber.id }).whereNotIn("tag_id", keep).delete();
    }
    const pairs = written.flatMap((write) => write.tags.map((name) => [companyId, write.subscriber.id, tagIds.get(name)!, at]));
    await insertRows(trx, "subscriber_tags", ["company_id", "subscriber_id", "tag_id", "created_at"], pairs, "subscriber_id, tag_id");

    const memberships = changes.listIds.flatMap((listId) => written.map((write) => [companyId, listId, write.subscriber.id, at]));
    await insertRows(trx, "list_memberships", ["company_id", "list_id", "subscriber_id", "subscribed_at"], memberships, "list_id, subscriber_id");
    await this.publish(changes, now);
    const published = await publishMembershipEvents(this.webhooks, trx, this.ids, companyId, "subscriber.list_subscribed", joins, now);
    if (published > 0) this.queuedJobTypes.push(DELIVER_WEBHOOK_JOB);
  }

  private async wants(type: WebhookEventType): Promise<boolean> {
    return this.webhooks !== undefined && (await this.webhooks.wanted(this.trx, this.subscriberImport.companyId)).has(type);
  }

  /** Each list of the import that each written contact is not a member of yet. */
  private async joinsOf(changes: {
    inserts: readonly ContactWrite[];
    updates: readonly ContactWrite[];
    listIds: readonly string[];
  }): Promise<MembershipChange[]> {
    const members = await this.membersAmong(
      changes.updates.map((write) => write.subscriber.id),
      changes.listIds,
    );
    return [...changes.updates, ...changes.inserts].flatMap(({ subscriber }) =>
      changes.listIds.filter((listId) => !members.has(`${subscriber.id} ${listId}`)).map((listId) => ({ subscriberId: subscriber.id, listId })),
    );
  }

  /** subscriber.created and subscriber.updated of the chunk's contacts, in its transaction. */
  private async publish(changes: { inserts: readonly ContactWrite[]; updates: readonly ContactWrite[] }, now: Date): Promise<void> {
    if (!this.webhooks) return;
    const event = (type: "subscriber.created" | "subscriber.updated", write: ContactWrite) =>
      subscriberWebhookEvent(this.ids.next("evt"), type, now, { ...write.subscriber, tags: write.tags });
    const published = await this.webhooks.publishIn(this.trx, this.subscriberImport.companyId, (wanted) => [
      ...(wanted.has("subscriber.created") ? changes.inserts.map((write) => event("subscriber.created", write)) : []),
      ...(wanted.has("subscriber.updated") ? changes.updates.map((write) => event("subscriber.updated", write)) : []),
    ]);
    if (published > 0) this.queuedJobTypes.push(DELIVER_WEBHOOK_JOB);
  }

  async startOptIns(subscriberIds: readonly string[], job: JobRequest, now: Date): Promise<void> {
    const at = toDbDate(now);
    const companyId = this.subscriberImport.companyId;
    await insertRows(
      this.trx,
      "opt_ins",
      ["company_id", "subscriber_id", "requested_at"],
      subscriberIds.map((id) => [companyId, id, at]),
      "subscriber_id",
    );
    await this.enqueue(job, now);
  }

  async enqueue(job: JobRequest, now: Date): Promise<void> {
    await this.trx("jobs").insert(newJobRow(job, this.ids.next("job"), now));
    this.queuedJobTypes.push(job.type);
  }

  /** Tag IDs by normalised name, creating the missing tags. */
  private async ensureTags(names: readonly string[], at: string | null): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    if (names.length === 0) return ids;
    const companyId = this.subscriberImport.companyId;
    const rows = names.map((name) => [this.ids.next("tag"), companyId, name, "gray", false, at, at]);
    await insertRows(this.trx, "tags", ["id", "company_id", "name", "color", "is_system", "created_at", "updated_at"], rows, "company_id, name");
    const found: Array<{ id: string; name: string }> = await this.trx("tags").where({ company_id: companyId }).whereIn("name", names).select("id", "name");
    for (const tag of found) ids.set(tag.name, tag.id);
    return ids;
  }
}

export class KnexSubscriberImportRepository implements SubscriberImportRepository {
  private readonly postgres: boolean;

  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    /** Publishes the contacts a chunk creates or changes to the company's webhooks, in the chunk's transaction. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {
    this.postgres = isPostgres(knex);
  }

  async insertOrFind(subscriberImport: SubscriberImport, chunks: readonly StoredChunk[]): Promise<{ subscriberImport: SubscriberImport; created: boolean }> {
    try {
      await this.knex.transaction(async (trx) => {
        await trx("subscriber_imports").insert({
          id: subscriberImport.id,
          company_id: subscriberImport.companyId,
          file_name: subscriberImport.fileName,
          request_key: subscriberImport.requestKey,
          options: JSON.stringify(subscriberImport.options),
          created_at: toDbDate(subscriberImport.createdAt),
          ...progressColumns(subscriberImport),
        });
        for (const chunk of chunks) {
          await trx("subscriber_import_chunks").insert({ import_id: subscriberImport.id, chunk: chunk.index, rows: JSON.stringify(chunk.rows), done: false });
        }
      });
      return { subscriberImport, created: true };
    } catch (error) {
      // Another request with the same idempotency key got there first.
      const earlier =
        subscriberImport.requestKey && isUniqueViolation(error) ? await this.findByRequestKey(subscriberImport.companyId, subscriberImport.requestKey) : null;
      if (!earlier) throw error;
      return { subscriberImport: earlier, created: false };
    }
  }

  async find(companyId: string, id: string): Promise<SubscriberImport | null> {
    const row = await this.knex("subscriber_imports").where({ company_id: companyId, id }).first();
    return row ? toImport(row) : null;
  }

  async findByRequestKey(companyId: string, requestKey: string): Promise<SubscriberImport | null> {
    const row = await this.knex("subscriber_imports").where({ company_id: companyId, request_key: requestKey }).first();
    return row ? toImport(row) : null;
  }

  async step(
    companyId: string,
    id: string,
    work: (subscriberImport: SubscriberImport, tx: ImportStepWork) => Promise<SubscriberImport | null>,
  ): Promise<SubscriberImport | null> {
    let queuedJobTypes: readonly string[] = [];
    const after = await this.knex.transaction(async (trx) => {
      const select = trx("subscriber_imports").where({ company_id: companyId, id });
      // Postgres: concurrent steps of one import wait here. SQLite: its single writer serialises them.
      const row = await (this.postgres ? select.forUpdate() : select).first();
      if (!row) return null;
      const current = toImport(row);
      const stepWork = new KnexImportStepWork(trx, this.ids, current, this.webhooks);
      const next = await work(current, stepWork);
      if (!next) return current;
      await trx("subscriber_imports").where({ company_id: companyId, id }).update(progressColumns(next));
      queuedJobTypes = stepWork.queuedJobTypes;
      return next;
    });
    if (queuedJobTypes.length > 0) await announceJobs(this.knex, queuedJobTypes);
    return after;
  }
}
