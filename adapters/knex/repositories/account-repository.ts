import * as t from "io-ts";
import type { Knex } from "knex";
import { DELIVERY_STATUSES, type AccountEvent, type AccountEventDelivery } from "../../../core/accounts/account-event.js";
import { ACCOUNT_ROLES, byRoleThenJoined, type Account, type AccountMember, type AccountRole, type AccountWithCount } from "../../../core/accounts/model.js";
import type { AccountEventRepository, AccountRepository, AccountSuggestionRepository, DeliveryOutcome } from "../../../core/accounts/ports.js";
import { RECIPIENT_OPTIONS } from "../../../core/accounts/recipients.js";
import {
  ACCOUNT_ATTRIBUTE_PREFIX,
  organizationIdOf,
  SUGGESTION_SOURCES,
  SUGGESTION_STATES,
  type NameSighting,
  type Sighting,
  type SuggestionJob,
  type SuggestionResult,
  type SuggestionSettings,
} from "../../../core/accounts/suggestion.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { isPostgres } from "../connection.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { chunksOf } from "../../../core/shared/chunks.js";

/** Rows written per statement, within every dialect's limit on bound parameters. */
const CHUNK = 200;

const chunks = <T>(items: readonly T[]): T[][] => chunksOf(items, CHUNK);

// ---------------------------------------------------------------------------------------------
// Accounts and members

const AccountRow = t.type({
  id: t.string,
  company_id: t.string,
  external_id: t.string,
  name: t.union([t.string, t.null]),
  domain: t.union([t.string, t.null]),
  attributes: dbJson(t.record(t.string, t.unknown)),
  created_at: DbDate,
  updated_at: DbDate,
  member_count: DbInteger,
});

function toAccount(row: unknown): AccountWithCount {
  const r = decodeRow(AccountRow, row, "accounts");
  return {
    id: r.id,
    companyId: r.company_id,
    externalId: r.external_id,
    name: r.name,
    domain: r.domain,
    attributes: r.attributes,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    memberCount: r.member_count,
  };
}

const MemberRow = t.type({
  subscriber_id: t.string,
  email: t.string,
  first_name: t.union([t.string, t.null]),
  last_name: t.union([t.string, t.null]),
  role: oneOf(ACCOUNT_ROLES),
  created_at: DbDate,
});

function toMember(row: unknown): AccountMember {
  const r = decodeRow(MemberRow, row, "account_members");
  return { subscriberId: r.subscriber_id, email: r.email, firstName: r.first_name, lastName: r.last_name, role: r.role, joinedAt: r.created_at };
}

export class KnexAccountRepository implements AccountRepository {
  constructor(private readonly knex: Knex) {}

  async findByExternalId(companyId: string, externalId: string): Promise<AccountWithCount | null> {
    const row = await this.knex("accounts as a")
      .where({ "a.company_id": companyId, "a.external_id": externalId })
      .select("a.*", this.knex.raw("(select count(*) from account_members m where m.account_id = a.id) as member_count"))
      .first();
    return row ? toAccount(row) : null;
  }

  async insert(account: Account): Promise<boolean> {
    const inserted = await this.knex("accounts")
      .insert({
        id: account.id,
        company_id: account.companyId,
        external_id: account.externalId,
        name: account.name,
        domain: account.domain,
        attributes: JSON.stringify(account.attributes),
        created_at: toDbDate(account.createdAt),
        updated_at: toDbDate(account.updatedAt),
      })
      .onConflict(["company_id", "external_id"])
      .ignore()
      .returning("id");
    return inserted.length > 0;
  }

  async update(account: Account): Promise<void> {
    await this.knex("accounts")
      .where({ company_id: account.companyId, id: account.id })
      .update({ name: account.name, domain: account.domain, attributes: JSON.stringify(account.attributes), updated_at: toDbDate(account.updatedAt) });
  }

  async listMembers(companyId: string, accountId: string): Promise<AccountMember[]> {
    const rows = await this.members(companyId, accountId);
    return rows.map(toMember).sort(byRoleThenJoined);
  }

  async findMember(companyId: string, accountId: string, subscriberId: string): Promise<AccountMember | null> {
    const row = await this.members(companyId, accountId).andWhere("m.subscriber_id", subscriberId).first();
    return row ? toMember(row) : null;
  }

  async saveMember(companyId: string, accountId: string, subscriberId: string, role: AccountRole, now: Date): Promise<boolean> {
    const inserted = await this.knex("account_members")
      .insert({ company_id: companyId, account_id: accountId, subscriber_id: subscriberId, role, created_at: toDbDate(now) })
      .onConflict(["account_id", "subscriber_id"])
      .ignore()
      .returning("subscriber_id");
    if (inserted.length > 0) return true;
    await this.knex("account_members").where({ company_id: companyId, account_id: accountId, subscriber_id: subscriberId }).update({ role });
    return false;
  }

  async ensureSuggested(account: Account): Promise<{ accountId: string; created: boolean }> {
    if (await this.insert(account)) return { accountId: account.id, created: true };
    // Existing accounts keep their names and domains (spec, Accounts).
    const row: { id: string } | undefined = await this.knex("accounts").where({ company_id: account.companyId, external_id: account.externalId }).first("id");
    if (!row) throw new Error(`account ${account.externalId} was refused but does not exist`);
    return { accountId: row.id, created: false };
  }

  async addMembers(companyId: string, accountId: string, subscriberIds: readonly string[], now: Date): Promise<number> {
    let added = 0;
    for (const chunk of chunks(subscriberIds)) {
      const inserted = await this.knex("account_members")
        .insert(
          chunk.map((subscriberId) => ({
            company_id: companyId,
            account_id: accountId,
            subscriber_id: subscriberId,
            role: "member",
            created_at: toDbDate(now),
          })),
        )
        .onConflict(["account_id", "subscriber_id"])
        .ignore()
        .returning("subscriber_id");
      added += inserted.length;
    }
    return added;
  }

  private members(companyId: string, accountId: string) {
    return this.knex("account_members as m")
      .join("subscribers as s", "s.id", "m.subscriber_id")
      .where({ "m.company_id": companyId, "m.account_id": accountId })
      .select("m.subscriber_id", "s.email", "s.first_name", "s.last_name", "m.role", "m.created_at");
  }
}

// ---------------------------------------------------------------------------------------------
// Account events and their deliveries

const AccountEventRow = t.type({
  id: t.string,
  company_id: t.string,
  account_id: t.string,
  name: t.string,
  properties: dbJson(t.record(t.string, t.unknown)),
  occurred_at: DbDate,
  event_id: t.union([t.string, t.null]),
  recipients: oneOf(RECIPIENT_OPTIONS),
  truncated: DbBoolean,
  created_at: DbDate,
});

const DeliveryRow = t.type({
  subscriber_id: t.string,
  email: t.string,
  role: oneOf(ACCOUNT_ROLES),
  position: DbInteger,
  status: oneOf(DELIVERY_STATUSES),
  custom_event_id: t.union([t.string, t.null]),
  error: t.union([t.string, t.null]),
});

function toDelivery(row: unknown): AccountEventDelivery {
  const r = decodeRow(DeliveryRow, row, "account_event_deliveries");
  return {
    subscriberId: r.subscriber_id,
    email: r.email,
    role: r.role,
    position: r.position,
    status: r.status,
    customEventId: r.custom_event_id,
    error: r.error,
  };
}

export class KnexAccountEventRepository implements AccountEventRepository {
  constructor(private readonly knex: Knex) {}

  async insert(event: AccountEvent): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const inserted = await trx("account_events")
        .insert({
          id: event.id,
          company_id: event.companyId,
          account_id: event.accountId,
          name: event.name,
          properties: JSON.stringify(event.properties),
          occurred_at: toDbDate(event.occurredAt),
          event_id: event.eventId,
          recipients: event.recipients,
          truncated: event.truncated,
          created_at: toDbDate(event.createdAt),
        })
        .onConflict()
        .ignore()
        .returning("id");
      if (inserted.length === 0) return false;
      for (const chunk of chunks(event.deliveries)) {
        await trx("account_event_deliveries").insert(
          chunk.map((d) => ({
            account_event_id: event.id,
            subscriber_id: d.subscriberId,
            email: d.email,
            role: d.role,
            position: d.position,
            status: d.status,
            custom_event_id: d.customEventId,
            error: d.error,
            updated_at: toDbDate(event.createdAt),
          })),
        );
      }
      return true;
    });
  }

  async findByEventId(companyId: string, accountId: string, eventId: string): Promise<AccountEvent | null> {
    const row = await this.knex("account_events").where({ company_id: companyId, account_id: accountId, event_id: eventId }).first();
    if (!row) return null;
    const r = decodeRow(AccountEventRow, row, "account_events");
    const deliveries = await this.knex("account_event_deliveries").where({ account_event_id: r.id }).orderBy("position");
    return {
      id: r.id,
      companyId: r.company_id,
      accountId: r.account_id,
      name: r.name,
      properties: r.properties,
      occurredAt: r.occurred_at,
      eventId: r.event_id,
      recipients: r.recipients,
      truncated: r.truncated,
      createdAt: r.created_at,
      deliveries: deliveries.map(toDelivery),
    };
  }

  async settleDelivery(companyId: string, accountEventId: string, subscriberId: string, outcome: DeliveryOutcome, now: Date): Promise<void> {
    await this.knex("account_event_deliveries")
      .where({ account_event_id: accountEventId, subscriber_id: subscriberId })
      .whereIn("account_event_id", this.knex("account_events").where({ company_id: companyId, id: accountEventId }).select("id"))
      .update({ status: outcome.status, custom_event_id: outcome.customEventId, error: outcome.error, updated_at: toDbDate(now) });
  }
}

// ---------------------------------------------------------------------------------------------
// Organization-ID suggestion runs

const SuggestionResultCodec = t.type({
  organizationIds: t.number,
  accountsCreated: t.number,
  accountsExisting: t.number,
  membersAdded: t.number,
  contactsSeen: t.number,
  valuesSkipped: t.number,
});

const SuggestionJobRow = t.type({
  id: t.string,
  company_id: t.string,
  property_key: t.string,
  source: oneOf(SUGGESTION_SOURCES),
  name_key: t.union([t.string, t.null]),
  state: oneOf(SUGGESTION_STATES),
  result: t.union([t.null, dbJson(SuggestionResultCodec)]),
  error: t.union([t.string, t.null]),
  created_at: DbDate,
  updated_at: DbDate,
  completed_at: DbNullableDate,
});

function toSuggestionJob(row: unknown): SuggestionJob {
  const r = decodeRow(SuggestionJobRow, row, "account_suggestion_jobs");
  return {
    id: r.id,
    companyId: r.company_id,
    settings: { source: r.source, propertyKey: r.property_key, nameKey: r.name_key },
    state: r.state,
    result: r.result,
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
  };
}

const ACTIVE_STATES = ["queued", "running"] as const;
/** Attempts at inserting a run before giving up on a key whose active run keeps settling meanwhile. */
const START_ATTEMPTS = 5;

/** Where a source's property values live, in SQL. */
interface PropertySource {
  /** The query's tables, subscribers aliased `s`. */
  readonly from: (knex: Knex, since: Date) => Knex.QueryBuilder;
  /** The JSON document holding the properties. */
  readonly document: string;
  /** When a value was seen. */
  readonly seenAt: string;
}

const SOURCES: Readonly<Record<SuggestionSettings["source"], PropertySource>> = {
  attribute: {
    from: (knex) => knex("subscribers as s"),
    document: "s.custom_attributes",
    seenAt: "s.updated_at",
  },
  event: {
    // The events of the last 180 days (spec, Accounts).
    from: (knex, since) => knex("custom_events as e").join("subscribers as s", "s.id", "e.subscriber_id").where("e.occurred_at", ">=", toDbDate(since)),
    document: "e.properties",
    seenAt: "e.occurred_at",
  },
};

export class KnexAccountSuggestionRepository implements AccountSuggestionRepository {
  constructor(private readonly knex: Knex) {}

  async startOrFindActive(job: SuggestionJob): Promise<{ job: SuggestionJob; alreadyRunning: boolean }> {
    for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      const inserted = await this.knex("account_suggestion_jobs")
        .insert({
          id: job.id,
          company_id: job.companyId,
          property_key: job.settings.propertyKey,
          source: job.settings.source,
          name_key: job.settings.nameKey,
          state: job.state,
          result: null,
          error: null,
          created_at: toDbDate(job.createdAt),
          updated_at: toDbDate(job.updatedAt),
          completed_at: null,
        })
        // The unique index account_suggestion_jobs_active allows one queued or running run per key.
        .onConflict()
        .ignore()
        .returning("id");
      if (inserted.length > 0) return { job, alreadyRunning: false };
      const active = await this.knex("account_suggestion_jobs")
        .where({ company_id: job.companyId, property_key: job.settings.propertyKey })
        .whereIn("state", ACTIVE_STATES)
        .first();
      if (active) return { job: toSuggestionJob(active), alreadyRunning: true };
      // The active run settled between the two statements: try again.
    }
    throw new Error(`could not start a suggestion run for ${job.settings.propertyKey}`);
  }

  async find(companyId: string, jobId: string): Promise<SuggestionJob | null> {
    const row = await this.knex("account_suggestion_jobs").where({ company_id: companyId, id: jobId }).first();
    return row ? toSuggestionJob(row) : null;
  }

  async markRunning(companyId: string, jobId: string, now: Date): Promise<SuggestionJob | null> {
    const changed = await this.knex("account_suggestion_jobs")
      .where({ company_id: companyId, id: jobId })
      .whereIn("state", ACTIVE_STATES)
      .update({ state: "running", updated_at: toDbDate(now) });
    return changed > 0 ? this.find(companyId, jobId) : null;
  }

  async settle(
    companyId: string,
    jobId: string,
    outcome: { state: "completed"; result: SuggestionResult } | { state: "failed"; error: string },
    now: Date,
  ): Promise<void> {
    await this.knex("account_suggestion_jobs")
      .where({ company_id: companyId, id: jobId })
      .whereIn("state", ACTIVE_STATES)
      .update({
        state: outcome.state,
        result: outcome.state === "completed" ? JSON.stringify(outcome.result) : null,
        error: outcome.state === "failed" ? outcome.error : null,
        updated_at: toDbDate(now),
        completed_at: toDbDate(now),
      });
  }

  async accountAttributeNames(companyId: string, limit: number): Promise<string[]> {
    const prefix = ACCOUNT_ATTRIBUTE_PREFIX;
    const rows: Array<{ name: string }> = isPostgres(this.knex)
      ? (
          await this.knex.raw(
            "select distinct k as name from subscribers s cross join lateral jsonb_object_keys(s.custom_attributes) k " +
              "where s.company_id = ? and left(k, ?) = ? order by name limit ?",
            [companyId, prefix.length, prefix, limit],
          )
        ).rows
      : await this.knex.raw(
          "select distinct j.key as name from subscribers s join json_each(s.custom_attributes) j " +
            "where s.company_id = ? and substr(j.key, 1, ?) = ? order by name limit ?",
          [companyId, prefix.length, prefix, limit],
        );
    return rows.map((row) => row.name);
  }

  async sightings(companyId: string, settings: SuggestionSettings, since: Date): Promise<Sighting[]> {
    const source = SOURCES[settings.source];
    const value = this.property(source.document, settings.propertyKey, "value");
    const rows: Array<{ subscriber_id: string; email: string; value: unknown }> = await value
      .restrict(source.from(this.knex, since))
      .where("s.company_id", companyId)
      .select("s.id as subscriber_id", "s.email", value.select)
      // By position: Postgres cannot tell that two bound copies of the key are the same expression.
      .groupByRaw("1, 2, 3");
    const sightings: Sighting[] = [];
    for (const row of rows) {
      const organizationId = organizationIdOf(row.value);
      if (organizationId !== null) sightings.push({ organizationId, subscriberId: row.subscriber_id, email: row.email });
    }
    return sightings;
  }

  async names(companyId: string, settings: SuggestionSettings & { nameKey: string }, since: Date): Promise<NameSighting[]> {
    const source = SOURCES[settings.source];
    const id = this.property(source.document, settings.propertyKey, "id");
    const name = this.property(source.document, settings.nameKey, "name");
    const rows: Array<{ id: unknown; name: unknown; seen_at: unknown }> = await name
      .restrict(id.restrict(source.from(this.knex, since)))
      .where("s.company_id", companyId)
      .select(id.select, name.select, this.knex.raw(`max(${source.seenAt}) as seen_at`))
      .groupByRaw("1, 2");
    const names: NameSighting[] = [];
    for (const row of rows) {
      const organizationId = organizationIdOf(row.id);
      const value = organizationIdOf(row.name);
      if (organizationId !== null && value !== null) names.push({ organizationId, name: value, seenAt: decodeRow(DbDate, row.seen_at, "seen_at") });
    }
    return names;
  }

  async enableAccounts(companyId: string): Promise<void> {
    await this.knex("companies").where({ id: companyId }).update({ accounts_enabled: true });
  }

  /**
   * A string or number property of a JSON document, selected as `alias`: Postgres reads it with
   * `->`, SQLite through json_each (which needs no JSON path, so any key works).
   */
  private property(document: string, key: string, alias: string): { restrict: (query: Knex.QueryBuilder) => Knex.QueryBuilder; select: Knex.Raw } {
    const knex = this.knex;
    if (isPostgres(knex)) {
      return {
        restrict: (query) => query.whereRaw(`jsonb_typeof(${document} -> ?::text) in ('string', 'number')`, [key]),
        select: knex.raw(`(${document} -> ?::text) as ??`, [key, alias]),
      };
    }
    const table = `p_${alias}`;
    return {
      restrict: (query) =>
        query.joinRaw(`join json_each(${document}) as ?? on ??.key = ? and ??.type in ('text', 'integer', 'real')`, [table, table, key, table]),
      select: knex.raw("??.value as ??", [table, alias]),
    };
  }
}
