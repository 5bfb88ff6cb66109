import * as t from "io-ts";
import type { Knex } from "knex";
import type { ActivityPosition } from "../../../core/subscribers/activity-cursor.js";
import type { TaggedSubscriber } from "../../../core/subscribers/model.js";
import type {
  AttributeFilter,
  ContactActivity,
  ListMembership,
  PageRequest,
  SubscriberCriteria,
  SubscriberQueries,
  TextSearch,
} from "../../../core/subscribers/queries.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import { isPostgres } from "../connection.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { publishMembershipEvents } from "../list-membership-events.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { segmentMembersQuery } from "../knex-segment-evaluator.js";
import { olderThan } from "./activity-before.js";
import { withTags } from "./subscriber-repository.js";

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const containing = (text: string): string => `%${escapeLike(text)}%`;
const LIKE = "like ? escape '\\'";

interface Fragment {
  readonly sql: string;
  readonly bindings: readonly Knex.RawBinding[];
}

/** One custom attribute read three ways: as text (booleans as true/false), as a number, as a string. */
function attributeAccess(postgres: boolean, name: string) {
  if (postgres) {
    return {
      text: { sql: "(s.custom_attributes ->> ?::text)", bindings: [name] },
      // CASE keeps the cast from ever seeing a value that is not a number.
      number: {
        sql: "(case when jsonb_typeof(s.custom_attributes -> ?::text) = 'number' then (s.custom_attributes ->> ?::text)::numeric end)",
        bindings: [name, name],
      },
      // Byte order, as SQLite compares, whatever the database's collation.
      string: {
        sql: "(case when jsonb_typeof(s.custom_attributes -> ?::text) = 'string' then (s.custom_attributes ->> ?::text) end) collate \"C\"",
        bindings: [name, name],
      },
      numberParameter: "?::numeric",
    };
  }
  // A JSON path with the name quoted keeps dots and spaces in it (quotes are refused upstream).
  const path = `$."${name}"`;
  return {
    text: {
      sql: "(case json_type(s.custom_attributes, ?) when 'true' then 'true' when 'false' then 'false' else json_extract(s.custom_attributes, ?) end)",
      bindings: [path, path],
    },
    number: {
      sql: "(case when json_type(s.custom_attributes, ?) in ('integer', 'real') then json_extract(s.custom_attributes, ?) end)",
      bindings: [path, path],
    },
    string: { sql: "(case when json_type(s.custom_attributes, ?) = 'text' then json_extract(s.custom_attributes, ?) end)", bindings: [path, path] },
    numberParameter: "?",
  };
}

const COMPARISONS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
const NUMBER = /^-?\d+(\.\d+)?$/;

function attributeCondition(postgres: boolean, filter: AttributeFilter): Fragment {
  const access = attributeAccess(postgres, filter.name);
  const value = filter.value ?? "";
  switch (filter.operator) {
    case "is":
      return { sql: `lower(${access.text.sql}) = ?`, bindings: [...access.text.bindings, value.toLowerCase()] };
    case "contains":
      return { sql: `lower(${access.text.sql}) ${LIKE}`, bindings: [...access.text.bindings, containing(value.toLowerCase())] };
    case "is_not_empty":
      return { sql: `coalesce(${access.text.sql}, '') <> ''`, bindings: access.text.bindings };
    default: {
      // A number compares with numbers, anything else with strings (ISO dates sort as text).
      const operator = COMPARISONS[filter.operator];
      return NUMBER.test(value)
        ? { sql: `${access.number.sql} ${operator} ${access.numberParameter}`, bindings: [...access.number.bindings, Number(value)] }
        : { sql: `${access.string.sql} ${operator} ?`, bindings: [...access.string.bindings, value] };
    }
  }
}

const MembershipRow = t.type({
  id: t.string,
  name: t.string,
  description: t.union([t.string, t.null]),
  is_private: DbBoolean,
  subscribed_at: DbDate,
  unsubscribed_at: DbNullableDate,
});

const EventRow = t.type({ id: t.string, name: t.string, occurred_at: DbDate, properties: dbJson(t.record(t.string, t.unknown)) });

const CountRow = t.type({ total: DbInteger });

/** Listings and the detail's extras over `subscribers s`, on SQLite and Postgres; every query names the company. */
export class KnexSubscriberQueries implements SubscriberQueries {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    /** Publishes subscriber.list_unsubscribed for the lists a contact leaves, in the transaction of the change. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  async find(criteria: SubscriberCriteria, page: PageRequest): Promise<TaggedSubscriber[]> {
    const query = this.matching(criteria).select("s.*").limit(page.limit);
    if (page.order === "idAscending") {
      if (page.after) query.where("s.id", ">", page.after.id);
      query.orderBy("s.id", "asc");
    } else {
      if (page.after) {
        const at = toDbDate(page.after.createdAt);
        const id = page.after.id;
        query.where((older) => older.where("s.created_at", "<", at).orWhere((same) => same.where("s.created_at", at).andWhere("s.id", "<", id)));
      }
      query.orderBy([
        { column: "s.created_at", order: "desc" },
        { column: "s.id", order: "desc" },
      ]);
    }
    if (page.offset > 0) query.offset(page.offset);
    return withTags(this.knex, criteria.companyId, await query);
  }

  async count(criteria: SubscriberCriteria): Promise<number> {
    const [row] = await this.matching(criteria).count("* as total");
    return decodeRow(CountRow, row, "subscriber count").total;
  }

  async findListId(companyId: string, reference: { readonly id?: string; readonly name?: string }): Promise<string | null> {
    if (reference.id) {
      const row = await this.knex("lists").where({ company_id: companyId, id: reference.id }).first("id");
      if (row) return row.id as string;
    }
    if (reference.name) {
      const row = await this.knex("lists").where({ company_id: companyId, name: reference.name }).first("id");
      if (row) return row.id as string;
    }
    return null;
  }

  async memberships(companyId: string, subscriberId: string): Promise<ListMembership[]> {
    const rows = await this.knex("list_memberships as lm")
      .join("lists as l", "l.id", "lm.list_id")
      .where({ "lm.company_id": companyId, "lm.subscriber_id": subscriberId })
      .orderBy([{ column: "lm.subscribed_at" }, { column: "l.name" }])
      .select("l.id", "l.name", "l.description", "l.is_private", "lm.subscribed_at", "lm.unsubscribed_at");
    return rows.map((row: unknown) => {
      const r = decodeRow(MembershipRow, row, "list_memberships");
      return { id: r.id, name: r.name, description: r.description, isPrivate: r.is_private, subscribedAt: r.subscribed_at, unsubscribedAt: r.unsubscribed_at };
    });
  }

  async recentEvents(companyId: string, subscriberId: string, limit: number, before: ActivityPosition | null): Promise<ContactActivity[]> {
    const rows = await olderThan(this.knex("custom_events").where({ company_id: companyId, subscriber_id: subscriberId }), "occurred_at", "id", before)
      .orderBy([
        { column: "occurred_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(limit)
      .select("id", "name", "occurred_at", "properties");
    return rows.map((row: unknown) => {
      const r = decodeRow(EventRow, row, "custom_events");
      return { id: r.id, name: r.name, occurredAt: r.occurred_at, properties: r.properties };
    });
  }

  async leaveAllLists(companyId: string, subscriberId: string, at: Date): Promise<void> {
    let published = 0;
    await this.knex.transaction(async (trx) => {
      const left: Array<{ list_id: string }> = await trx("list_memberships")
        .where({ company_id: companyId, subscriber_id: subscriberId })
        .whereNull("unsubscribed_at")
        .update({ unsubscribed_at: toDbDate(at) })
        .returning("list_id");
      const changes = left.map((row) => ({ subscriberId, listId: row.list_id }));
      published = await publishMembershipEvents(this.webhooks, trx, this.ids, companyId, "subscriber.list_unsubscribed", changes, at);
    });
    await this.webhooks?.announce(published);
  }

  /** `subscribers s` of the company restricted to the criteria (no order, no columns). */
  private matching(criteria: SubscriberCriteria): Knex.QueryBuilder {
    const { companyId } = criteria;
    const query = this.knex("subscribers as s").where("s.company_id", companyId);
    for (const search of criteria.search) this.applySearch(query, companyId, search);
    for (const tag of criteria.tags) {
      query.whereExists(
        this.knex("subscriber_tags as st")
          .join("tags as t", "t.id", "st.tag_id")
          .whereRaw("st.subscriber_id = s.id")
          .where({ "t.company_id": companyId, "t.name": tag })
          .select(this.knex.raw("1")),
      );
    }
    if (criteria.listId) {
      query.whereExists(
        this.knex("list_memberships as lm")
          .whereRaw("lm.subscriber_id = s.id")
          .where({ "lm.company_id": companyId, "lm.list_id": criteria.listId })
          .whereNull("lm.unsubscribed_at")
          .select(this.knex.raw("1")),
      );
    }
    if (criteria.segment) query.whereIn("s.id", segmentMembersQuery(this.knex, criteria.segment));
    if (criteria.status) query.where("s.status", criteria.status);
    if (criteria.unsubscribedAfter) query.where("s.unsubscribed_at", ">=", toDbDate(criteria.unsubscribedAfter));
    if (criteria.unsubscribedBefore) query.where("s.unsubscribed_at", "<", toDbDate(criteria.unsubscribedBefore));
    if (criteria.attribute) {
      const condition = attributeCondition(isPostgres(this.knex), criteria.attribute);
      query.whereRaw(condition.sql, [...condition.bindings]);
    }
    return query;
  }

  private applySearch(query: Knex.QueryBuilder, companyId: string, search: TextSearch): void {
    switch (search.kind) {
      case "exactEmail":
        query.where("s.email", search.email);
        return;
      case "emailContains":
        // Emails are stored lower-cased.
        query.whereRaw(`s.email ${LIKE}`, [containing(search.text)]);
        return;
      case "anywhere": {
        const pattern = containing(search.text);
        query.where((any) =>
          any
            .whereRaw(`s.email ${LIKE}`, [pattern])
            .orWhereRaw(`lower(coalesce(s.external_id, '')) ${LIKE}`, [pattern])
            .orWhereRaw(`lower(coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')) ${LIKE}`, [pattern])
            .orWhereExists(
              this.knex("subscriber_tags as st")
                .join("tags as t", "t.id", "st.tag_id")
                .whereRaw("st.subscriber_id = s.id")
                .where("t.company_id", companyId)
                .whereRaw(`t.name ${LIKE}`, [pattern])
                .select(this.knex.raw("1")),
            ),
        );
      }
    }
  }
}
