import * as t from "io-ts";
import type { Knex } from "knex";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import { StoredFilterGroup } from "../../../core/segments/commands.js";
import { Email, nullable, oneOf } from "../../../core/shared/codecs.js";
import { OPERATION_KINDS, OPERATION_STATUSES, type OperationAudience, type SubscriberOperation } from "../../../core/subscriber-operations/model.js";
import type {
  BulkTagStore,
  ContactIdentifiers,
  IdentifiedContact,
  OperationStepWork,
  SubscriberOperationRepository,
  TagChange,
} from "../../../core/subscriber-operations/ports.js";
import type { JobRequest } from "../../../core/ports/job-queue.js";
import { isPostgres } from "../connection.js";
import { announceJobs, newJobRow } from "../knex-job-queue.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { segmentQuery } from "../knex-segment-evaluator.js";
import { ensureTags } from "./subscriber-repository.js";
import { publishContactUpdates } from "../contact-update-events.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { DELIVER_WEBHOOK_JOB } from "../../../core/webhooks/delivery-job.js";

type Db = Knex | Knex.Transaction;

/** `params` as stored: the audience's referenced trees as [segmentId, tree] pairs. */
const StoredParams = t.type({
  tags: t.array(t.string),
  triggerAutomations: t.boolean,
  audience: t.type({
    subscriberIds: nullable(t.array(t.string)),
    listId: nullable(t.string),
    search: nullable(t.string),
    activeOnly: t.boolean,
    filter: nullable(t.type({ root: StoredFilterGroup, referenced: t.array(t.tuple([t.string, StoredFilterGroup])) })),
  }),
});

const OperationRow = t.type({
  id: t.string,
  company_id: t.string,
  kind: oneOf(OPERATION_KINDS),
  request_key: t.string,
  status: oneOf(OPERATION_STATUSES),
  params: dbJson(StoredParams),
  total: DbInteger,
  processed: DbInteger,
  succeeded: DbInteger,
  failed: DbInteger,
  error: nullable(t.string),
  failures: dbJson(t.array(t.type({ subscriberId: t.string, error: t.string }))),
  selection_complete: DbBoolean,
  cancel_requested: DbBoolean,
  created_at: DbDate,
  updated_at: DbDate,
  completed_at: DbNullableDate,
  expires_at: DbNullableDate,
});

function toOperation(row: unknown): SubscriberOperation {
  const r = decodeRow(OperationRow, row, "subscriber_operations");
  const { filter, ...audience } = r.params.audience;
  return {
    id: r.id,
    companyId: r.company_id,
    kind: r.kind,
    requestKey: r.request_key,
    status: r.status,
    params: {
      tags: r.params.tags,
      triggerAutomations: r.params.triggerAutomations,
      audience: { ...audience, filter: filter ? { root: filter.root, referenced: new Map(filter.referenced) } : null },
    },
    total: r.total,
    processed: r.processed,
    succeeded: r.succeeded,
    failed: r.failed,
    error: r.error,
    failures: r.failures,
    selectionComplete: r.selection_complete,
    cancelRequested: r.cancel_requested,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
    expiresAt: r.expires_at,
  };
}

const paramsJson = (operation: SubscriberOperation): string => {
  const { audience } = operation.params;
  const filter = audience.filter ? { root: audience.filter.root, referenced: [...audience.filter.referenced] } : null;
  return JSON.stringify({ ...operation.params, audience: { ...audience, filter } });
};

/** The columns a status change writes (never the counters). */
const statusColumns = (operation: SubscriberOperation) => ({
  status: operation.status,
  error: operation.error,
  cancel_requested: operation.cancelRequested,
  completed_at: toDbDate(operation.completedAt),
  expires_at: toDbDate(operation.expiresAt),
  updated_at: toDbDate(operation.updatedAt),
});

/** The columns a job step writes. */
const progressColumns = (operation: SubscriberOperation) => ({
  ...statusColumns(operation),
  total: operation.total,
  processed: operation.processed,
  succeeded: operation.succeeded,
  failed: operation.failed,
  failures: JSON.stringify(operation.failures),
  selection_complete: operation.selectionComplete,
});

const placeholders = (values: readonly unknown[]): string => values.map(() => "?").join(", ");

/** The company's contacts among `subscriberIds`. */
async function existingContacts(db: Db, companyId: string, subscriberIds: readonly string[]): Promise<Set<string>> {
  const rows: Array<{ id: string }> = await db("subscribers").where({ company_id: companyId }).whereIn("id", subscriberIds).select("id");
  return new Set(rows.map((row) => row.id));
}

async function touch(db: Db, companyId: string, subscriberIds: readonly string[], now: Date): Promise<void> {
  if (subscriberIds.length > 0)
    await db("subscribers")
      .where({ company_id: companyId })
      .whereIn("id", subscriberIds)
      .update({ updated_at: toDbDate(now) });
}

/**
 * Adds tags (created when missing) to the contacts that exist, in three statements whatever the
 * count: which contacts lack a tag, one INSERT ... SELECT of every pair, and their updatedAt.
 */
async function addTags(db: Db, ids: IdGenerator, companyId: string, subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange> {
  const existing = await existingContacts(db, companyId, subscriberIds);
  const missing = subscriberIds.filter((id) => !existing.has(id));
  const contacts = [...existing];
  if (contacts.length === 0 || tags.length === 0) return { changed: [], missing };
  const tagIds = await ensureTags(db, ids, companyId, tags, now);
  const complete: Array<{ subscriber_id: string }> = await db("subscriber_tags")
    .where({ company_id: companyId })
    .whereIn("subscriber_id", contacts)
    .whereIn("tag_id", tagIds)
    .groupBy("subscriber_id")
    .havingRaw("count(*) = ?", [tagIds.length])
    .select("subscriber_id");
  const unchanged = new Set(complete.map((row) => row.subscriber_id));
  const changed = contacts.filter((id) => !unchanged.has(id));
  if (changed.length > 0) {
    await db.raw(
      `insert into subscriber_tags (company_id, subscriber_id, tag_id, created_at)
       select s.company_id, s.id, t.id, ? from subscribers s cross join tags t
       where s.company_id = ? and s.id in (${placeholders(changed)}) and t.company_id = ? and t.id in (${placeholders(tagIds)})
       on conflict (subscriber_id, tag_id) do nothing`,
      [toDbDate(now), companyId, ...changed, companyId, ...tagIds],
    );
    await touch(db, companyId, changed, now);
  }
  return { changed, missing };
}

async function removeTags(db: Db, companyId: string, subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange> {
  const existing = await existingContacts(db, companyId, subscriberIds);
  const missing = subscriberIds.filter((id) => !existing.has(id));
  const contacts = [...existing];
  if (contacts.length === 0 || tags.length === 0) return { changed: [], missing };
  const tagged = () =>
    db("subscriber_tags")
      .where({ company_id: companyId })
      .whereIn("subscriber_id", contacts)
      .whereIn("tag_id", db("tags").where({ company_id: companyId }).whereIn("name", tags).select("id"));
  const rows: Array<{ subscriber_id: string }> = await tagged().distinct("subscriber_id");
  const changed = rows.map((row) => row.subscriber_id);
  if (changed.length > 0) {
    await tagged().delete();
    await touch(db, companyId, changed, now);
  }
  return { changed, missing };
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Contacts whose email is `search` when it is a full address; else whose email, externalId, names or a tag contain it. */
function whereSearch(db: Db, query: Knex.QueryBuilder, companyId: string, search: string): Knex.QueryBuilder {
  const email = Email.decode(search);
  if (email._tag === "Right") return query.where("s.email", email.right);
  const like = `%${escapeLike(search.toLowerCase())}%`;
  return query.where((any) =>
    any
      .whereRaw("lower(s.email) like ? escape '\\'", [like])
      .orWhereRaw("lower(coalesce(s.external_id, '')) like ? escape '\\'", [like])
      .orWhereRaw("lower(coalesce(s.first_name, '')) like ? escape '\\'", [like])
      .orWhereRaw("lower(coalesce(s.last_name, '')) like ? escape '\\'", [like])
      .orWhereIn(
        "s.id",
        db("subscriber_tags as st")
          .join("tags as tg", "tg.id", "st.tag_id")
          .where("tg.company_id", companyId)
          .whereRaw("tg.name like ? escape '\\'", [like])
          .select("st.subscriber_id"),
      ),
  );
}

/** One job step's reads and writes, all inside the transaction that locked the operation. */
class KnexStepWork implements OperationStepWork {
  /** The types of the jobs this step queued: workers are woken once it commits. */
  readonly queuedJobTypes: string[] = [];

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly ids: IdGenerator,
    private readonly operation: SubscriberOperation,
    private readonly webhooks: KnexWebhookPublisher | undefined,
  ) {}

  private get items() {
    return this.trx("subscriber_operation_items").where({ operation_id: this.operation.id });
  }

  async selectAudience(audience: OperationAudience, evaluatedAt: Date, afterId: string | null, limit: number): Promise<string[]> {
    const { trx } = this;
    const companyId = this.operation.companyId;
    let query: Knex.QueryBuilder = audience.filter
      ? segmentQuery(trx, { companyId, root: audience.filter.root, referenced: audience.filter.referenced, now: evaluatedAt })
      : trx.queryBuilder().from("subscribers as s").where("s.company_id", companyId);
    if (audience.subscriberIds) query = query.whereIn("s.id", audience.subscriberIds);
    if (audience.activeOnly) query = query.where("s.status", "active");
    if (audience.listId) {
      const members: Knex.QueryBuilder = trx("list_memberships")
        .where({ company_id: companyId, list_id: audience.listId })
        .whereNull("unsubscribed_at")
        .select("subscriber_id");
      query = query.whereIn("s.id", members);
    }
    if (audience.search) query = whereSearch(trx, query, companyId, audience.search);
    if (afterId) query = query.where("s.id", ">", afterId);
    const rows: Array<{ id: string }> = await query.orderBy("s.id").limit(limit).select("s.id");
    return rows.map((row) => row.id);
  }

  async lastQueuedId(): Promise<string | null> {
    const row = (await this.items.max("subscriber_id as last").first()) as { last?: string | null } | undefined;
    return row?.last ?? null;
  }

  async queue(subscriberIds: readonly string[]): Promise<number> {
    await this.trx("subscriber_operation_items")
      .insert(subscriberIds.map((subscriberId) => ({ operation_id: this.operation.id, subscriber_id: subscriberId, state: "pending" })))
      .onConflict(["operation_id", "subscriber_id"])
      .ignore();
    const row = await this.items.count("* as total").first();
    return decodeRow(t.type({ total: DbInteger }), row, "subscriber_operation_items").total;
  }

  async pending(limit: number): Promise<string[]> {
    const rows: Array<{ subscriber_id: string }> = await this.items.where({ state: "pending" }).orderBy("subscriber_id").limit(limit).select("subscriber_id");
    return rows.map((row) => row.subscriber_id);
  }

  async addTags(subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange> {
    const change = await addTags(this.trx, this.ids, this.operation.companyId, subscriberIds, tags, now);
    const published = await publishContactUpdates(this.webhooks, this.trx, this.ids, this.operation.companyId, change.changed, now);
    if (published > 0) this.queuedJobTypes.push(DELIVER_WEBHOOK_JOB);
    return change;
  }

  async settle(done: readonly string[], failed: readonly string[]): Promise<void> {
    if (done.length > 0) await this.items.whereIn("subscriber_id", done).update({ state: "done" });
    if (failed.length > 0) await this.items.whereIn("subscriber_id", failed).update({ state: "failed" });
  }

  async enqueue(job: JobRequest, now: Date): Promise<void> {
    await this.trx("jobs").insert(newJobRow(job, this.ids.next("job"), now));
    this.queuedJobTypes.push(job.type);
  }
}

export class KnexSubscriberOperationRepository implements SubscriberOperationRepository {
  private readonly postgres: boolean;

  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    /** Publishes subscriber.updated for the contacts a step tagged, in the step's transaction. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {
    this.postgres = isPostgres(knex);
  }

  async insertOrFind(operation: SubscriberOperation): Promise<{ operation: SubscriberOperation; created: boolean }> {
    const inserted = await this.knex("subscriber_operations")
      .insert({
        id: operation.id,
        company_id: operation.companyId,
        kind: operation.kind,
        request_key: operation.requestKey,
        params: paramsJson(operation),
        created_at: toDbDate(operation.createdAt),
        ...progressColumns(operation),
      })
      .onConflict(["company_id", "request_key"])
      .ignore()
      .returning("id");
    if (inserted.length > 0) return { operation, created: true };
    const row = await this.knex("subscriber_operations").where({ company_id: operation.companyId, request_key: operation.requestKey }).first();
    if (!row) throw new Error(`operation with request key ${operation.requestKey} vanished`);
    return { operation: toOperation(row), created: false };
  }

  async find(companyId: string, id: string): Promise<SubscriberOperation | null> {
    const row = await this.knex("subscriber_operations").where({ company_id: companyId, id }).first();
    return row ? toOperation(row) : null;
  }

  async listRecent(companyId: string, limit: number): Promise<SubscriberOperation[]> {
    const rows = await this.knex("subscriber_operations")
      .where({ company_id: companyId })
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(limit);
    return rows.map(toOperation);
  }

  async saveStatus(operation: SubscriberOperation, expected: SubscriberOperation["status"]): Promise<boolean> {
    const changed = await this.knex("subscriber_operations")
      .where({ company_id: operation.companyId, id: operation.id, status: expected })
      .update(statusColumns(operation));
    return changed > 0;
  }

  async step(
    companyId: string,
    id: string,
    work: (operation: SubscriberOperation, tx: OperationStepWork) => Promise<SubscriberOperation | null>,
  ): Promise<SubscriberOperation | null> {
    let queuedJobTypes: readonly string[] = [];
    const after = await this.knex.transaction(async (trx) => {
      const select = trx("subscriber_operations").where({ company_id: companyId, id });
      // Postgres: concurrent steps of one operation wait here. SQLite: its single writer serialises them.
      const row = await (this.postgres ? select.forUpdate() : select).first();
      if (!row) return null;
      const operation = toOperation(row);
      const stepWork = new KnexStepWork(trx, this.ids, operation, this.webhooks);
      const next = await work(operation, stepWork);
      if (!next) return operation;
      await trx("subscriber_operations").where({ company_id: companyId, id }).update(progressColumns(next));
      queuedJobTypes = stepWork.queuedJobTypes;
      return next;
    });
    if (queuedJobTypes.length > 0) await announceJobs(this.knex, queuedJobTypes);
    return after;
  }

  async listExists(companyId: string, listId: string): Promise<boolean> {
    return Boolean(await this.knex("lists").where({ company_id: companyId, id: listId }).first("id"));
  }

  async deleteExpired(now: Date): Promise<number> {
    return this.knex("subscriber_operations").where("expires_at", "<=", toDbDate(now)).delete();
  }
}

/** Contacts looked up and tagged in a few statements per request. */
export class KnexBulkTagStore implements BulkTagStore {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    /** Publishes subscriber.updated for the contacts whose tags changed, in the change's transaction. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  async findContacts(companyId: string, identifiers: ContactIdentifiers): Promise<IdentifiedContact[]> {
    const { emails, externalIds, subscriberIds } = identifiers;
    if (emails.length + externalIds.length + subscriberIds.length === 0) return [];
    const rows: Array<{ id: string; email: string; external_id: string | null }> = await this.knex("subscribers")
      .where({ company_id: companyId })
      .where((any) => {
        if (emails.length > 0) any.orWhereIn("email", emails);
        if (externalIds.length > 0) any.orWhereIn("external_id", externalIds);
        if (subscriberIds.length > 0) any.orWhereIn("id", subscriberIds);
      })
      .select("id", "email", "external_id");
    return rows.map((row) => ({ id: row.id, email: row.email, externalId: row.external_id }));
  }

  addTags(companyId: string, subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange> {
    return this.publishing(companyId, now, (trx) => addTags(trx, this.ids, companyId, subscriberIds, tags, now));
  }

  removeTags(companyId: string, subscriberIds: readonly string[], tags: readonly string[], now: Date): Promise<TagChange> {
    return this.publishing(companyId, now, (trx) => removeTags(trx, companyId, subscriberIds, tags, now));
  }

  /** Runs a tag change in a transaction with the subscriber.updated events of the contacts it changed. */
  private async publishing(companyId: string, now: Date, write: (trx: Knex.Transaction) => Promise<TagChange>): Promise<TagChange> {
    let published = 0;
    const change = await this.knex.transaction(async (trx) => {
      const change = await write(trx);
      published = await publishContactUpdates(this.webhooks, trx, this.ids, companyId, change.changed, now);
      return change;
    });
    await this.webhooks?.announce(published);
    return change;
  }
}
