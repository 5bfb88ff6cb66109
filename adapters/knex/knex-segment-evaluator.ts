import * as t from "io-ts";
import type { Knex } from "knex";
import {
  conditionOf,
  momentAt,
  windowStart,
  type Condition,
  type EmailActivity,
  type FilterGroup,
  type FilterNode,
  type TextMatch,
} from "../../core/segments/model.js";
import type { SegmentCounts, SegmentDefinition, SegmentEvaluator } from "../../core/segments/ports.js";
import { isPostgres } from "./connection.js";
import { DbInteger, decodeRow, toDbDate } from "./row-codecs.js";

/**
 * Compiles a segment's filter tree into ONE query over `subscribers s`, for SQLite and Postgres:
 * attributes through json_extract/json_type (SQLite) or ->> and jsonb_typeof (Postgres), tags
 * through subscriber_tags/tags, lists through list_memberships, events through custom_events
 * (name, count, window), email conditions through email_sends (the time of each activity kept on
 * the send, people's first opens and clicks). A referenced segment becomes a common table expression of its own
 * (compiled from its tree, once however often it is referenced) that the condition reads.
 *
 * What each condition means is decided in core/segments/model.ts (Condition, conditionOf); this
 * file only says it in SQL. Every negative condition is NOT of its positive form, and every
 * positive form is never NULL (missing values count as empty), so "is not" keeps the contacts
 * "is" leaves out.
 */

type Dialect = "sqlite" | "postgres";

interface Fragment {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

const fragment = (sql: string, ...bindings: unknown[]): Fragment => ({ sql, bindings });
const TRUE = fragment("1 = 1");

/** Groups wider than this are split into nested parentheses, so SQLite's expression depth stays small. */
const FANOUT = 8;

function combine(parts: readonly Fragment[], join: "and" | "or"): Fragment {
  if (parts.length === 1) return parts[0]!;
  if (parts.length > FANOUT) {
    const size = Math.ceil(parts.length / FANOUT);
    const chunks: Fragment[] = [];
    for (let start = 0; start < parts.length; start += size) chunks.push(combine(parts.slice(start, start + size), join));
    return combine(chunks, join);
  }
  return { sql: `(${parts.map((part) => part.sql).join(` ${join} `)})`, bindings: parts.flatMap((part) => part.bindings) };
}

const not = (positive: Fragment, negated: boolean): Fragment => (negated ? { sql: `not (${positive.sql})`, bindings: positive.bindings } : positive);

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const COLUMNS = { email: "s.email", emailProvider: "s.email_provider", firstName: "s.first_name", lastName: "s.last_name", phone: "s.phone" } as const;

/** A text condition on an expression that may be NULL (NULL counts as empty). */
function textMatch(expression: Fragment, match: TextMatch): Fragment {
  switch (match.kind) {
    case "equals":
      return { sql: `coalesce(lower(${expression.sql}), '') = ?`, bindings: [...expression.bindings, match.text] };
    case "contains":
      return { sql: `coalesce(lower(${expression.sql}), '') like ? escape '\\'`, bindings: [...expression.bindings, `%${escapeLike(match.text)}%`] };
    case "empty":
      return { sql: `coalesce(${expression.sql}, '') = ''`, bindings: expression.bindings };
  }
}

/** JSON access to one custom attribute, per dialect. */
const attributes = {
  sqlite: {
    // Booleans read as true/false (json_extract gives 1/0), like Postgres' ->>.
    text: (path: string) =>
      fragment(
        "(case json_type(s.custom_attributes, ?) when 'true' then 'true' when 'false' then 'false' else json_extract(s.custom_attributes, ?) end)",
        path,
        path,
      ),
    number: (path: string) =>
      fragment("(case when json_type(s.custom_attributes, ?) in ('integer', 'real') then json_extract(s.custom_attributes, ?) end)", path, path),
    string: (path: string) => fragment("(case when json_type(s.custom_attributes, ?) = 'text' then json_extract(s.custom_attributes, ?) end)", path, path),
    numberParameter: "?",
  },
  postgres: {
    text: (name: string) => fragment("(s.custom_attributes ->> ?::text)", name),
    // CASE keeps the cast from ever seeing a value that is not a number.
    number: (name: string) =>
      fragment("(case when jsonb_typeof(s.custom_attributes -> ?::text) = 'number' then (s.custom_attributes ->> ?::text)::numeric end)", name, name),
    // Byte order, as SQLite compares, whatever the database's collation.
    string: (name: string) =>
      fragment("(case when jsonb_typeof(s.custom_attributes -> ?::text) = 'string' then (s.custom_attributes ->> ?::text) end) collate \"C\"", name, name),
    numberParameter: "?::numeric",
  },
} as const;

const COMPARISONS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** The send column that says when each activity happened (people's first open and click). */
const ACTIVITY_TIME: Readonly<Record<EmailActivity, string>> = {
  sent: "sent_at",
  delivered: "delivered_at",
  opened: "first_human_opened_at",
  clicked: "first_human_clicked_at",
  complained: "complained_at",
  bounced: "bounced_at",
};

/** Relative cost of a node per row: columns, then set lookups, then JSON attributes. */
function costOf(node: FilterNode): number {
  if (node.kind === "group") return Math.max(...node.children.map(costOf));
  switch (node.field) {
    case "attribute":
      return 2;
    case "tag":
    case "list":
    case "event":
    case "segment":
    case "emailSent":
    case "emailDelivered":
    case "emailOpened":
    case "emailClicked":
    case "emailComplained":
    case "emailBounced":
      return 1;
    default:
      return 0;
  }
}

class SegmentCompiler {
  /** CTE alias of each referenced segment compiled so far. */
  private readonly aliases = new Map<string, string>();
  private readonly compiling = new Set<string>();
  readonly ctes: Array<{ alias: string; body: Fragment }> = [];

  constructor(
    private readonly dialect: Dialect,
    private readonly definition: SegmentDefinition,
  ) {}

  node(node: FilterNode): Fragment {
    if (node.kind === "filter") {
      const condition = conditionOf(node);
      if (condition._tag === "Left") throw new Error(`Unreadable stored segment filter ${node.id}: ${condition.left.message}`);
      return this.condition(condition.right);
    }
    return this.group(node);
  }

  group(group: FilterGroup): Fragment {
    // The same condition twice in one group changes nothing: compile it once. Cheap conditions
    // go first, so SQLite decides most rows before it parses any JSON.
    const parts = new Map<string, { fragment: Fragment; cost: number }>();
    for (const child of group.children) {
      const fragment = this.node(child);
      parts.set(JSON.stringify([fragment.sql, fragment.bindings]), { fragment, cost: costOf(child) });
    }
    const ordered = [...parts.values()].sort((a, b) => a.cost - b.cost).map((part) => part.fragment);
    return combine(ordered, group.joinOperator);
  }

  private condition(condition: Condition): Fragment {
    const { companyId, now } = this.definition;
    switch (condition.type) {
      case "status":
        return fragment(condition.negated ? "s.status <> ?" : "s.status = ?", condition.status);
      case "smsStatus":
        return fragment(condition.negated ? "s.sms_status <> ?" : "s.sms_status = ?", condition.smsStatus);
      case "column": {
        // Emails are stored lower-cased and never empty: equality can use the (company_id, email) index.
        const positive =
          condition.column === "email" && condition.match.kind === "equals"
            ? fragment("s.email = ?", condition.match.text)
            : textMatch(fragment(COLUMNS[condition.column]), condition.match);
        return not(positive, condition.negated);
      }
      case "tags": {
        const positive =
          condition.names.length === 0
            ? fragment("exists (select 1 from subscriber_tags st where st.subscriber_id = s.id)")
            : fragment(
                `s.id in (select st.subscriber_id from subscriber_tags st join tags t on t.id = st.tag_id where t.company_id = ? and t.name in (${condition.names.map(() => "?").join(", ")}))`,
                companyId,
                ...condition.names,
              );
        return not(positive, condition.negated);
      }
      case "lists": {
        const positive =
          condition.listIds.length === 0
            ? fragment("exists (select 1 from list_memberships lm where lm.subscriber_id = s.id and lm.unsubscribed_at is null)")
            : fragment(
                `s.id in (select lm.subscriber_id from list_memberships lm where lm.company_id = ? and lm.list_id in (${condition.listIds.map(() => "?").join(", ")}) and lm.unsubscribed_at is null)`,
                companyId,
                ...condition.listIds,
              );
        return not(positive, condition.negated);
      }
      case "added":
        return fragment(condition.newer ? "s.created_at > ?" : "s.created_at < ?", toDbDate(momentAt(condition.moment, now)));
      case "attribute": {
        const access = this.attributeAccess(condition.name);
        return not(textMatch(access.text, condition.match), condition.negated);
      }
      case "attributeOrder": {
        const access = this.attributeAccess(condition.name);
        const operator = COMPARISONS[condition.comparison];
        const [expression, parameter] = typeof condition.value === "number" ? [access.number, access.numberParameter] : [access.string, "?"];
        return { sql: `coalesce(${expression.sql} ${operator} ${parameter}, false)`, bindings: [...expression.bindings, condition.value] };
      }
      case "event": {
        if (condition.atLeast <= 0) return not(TRUE, condition.negated);
        const since = windowStart(condition.window, now);
        const window = since ? " and e.occurred_at >= ?" : "";
        const counted = condition.atLeast > 1 ? " group by e.subscriber_id having count(*) >= ?" : "";
        const positive = fragment(
          `s.id in (select e.subscriber_id from custom_events e where e.company_id = ? and e.name = ?${window}${counted})`,
          companyId,
          condition.name,
          ...(since ? [toDbDate(since)] : []),
          ...(condition.atLeast > 1 ? [condition.atLeast] : []),
        );
        return not(positive, condition.negated);
      }
      case "segment":
        return not(fragment(`s.id in (select id from ${this.alias(condition.segmentId)})`), condition.negated);
      case "email": {
        if (condition.atLeast <= 0) return not(TRUE, condition.negated);
        const at = `es.${ACTIVITY_TIME[condition.activity]}`;
        const since = "window" in condition.scope ? windowStart(condition.scope.window, now) : null;
        const clauses = [`es.company_id = ?`, "es.subscriber_id is not null", "es.is_test = ?", `${at} is not null`];
        const bindings: unknown[] = [companyId, false];
        if (since) {
          clauses.push(`${at} >= ?`);
          bindings.push(toDbDate(since));
        }
        if ("campaignId" in condition.scope) {
          clauses.push("es.campaign_id = ?");
          bindings.push(condition.scope.campaignId);
        }
        if (condition.bounceType) {
          clauses.push("es.bounce_type = ?");
          bindings.push(condition.bounceType);
        }
        const counted = condition.atLeast > 1 ? " group by es.subscriber_id having count(*) >= ?" : "";
        if (condition.atLeast > 1) bindings.push(condition.atLeast);
        // subscriber_id is never NULL in the list, or "not in" would be NULL for every contact.
        return not(fragment(`s.id in (select es.subscriber_id from email_sends es where ${clauses.join(" and ")}${counted})`, ...bindings), condition.negated);
      }
    }
  }

  private attributeAccess(name: string) {
    const dialect = attributes[this.dialect];
    // SQLite reads a JSON path ($."name" keeps dots and spaces in the name); Postgres the key itself.
    const key = this.dialect === "sqlite" ? `$."${name}"` : name;
    return { text: dialect.text(key), number: dialect.number(key), string: dialect.string(key), numberParameter: dialect.numberParameter };
  }

  /** The CTE of a referenced segment, compiled after the segments it references itself. */
  private alias(segmentId: string): string {
    const known = this.aliases.get(segmentId);
    if (known) return known;
    const tree = this.definition.referenced.get(segmentId);
    if (!tree) throw new Error(`Segment ${segmentId} is referenced but was not loaded`);
    if (this.compiling.has(segmentId)) throw new Error(`Segment ${segmentId} references itself`);
    this.compiling.add(segmentId);
    const where = this.group(tree);
    this.compiling.delete(segmentId);
    const alias = `segment_${this.ctes.length}`;
    this.ctes.push({
      alias,
      body: { sql: `select s.id from subscribers s where s.company_id = ? and ${where.sql}`, bindings: [this.definition.companyId, ...where.bindings] },
    });
    this.aliases.set(segmentId, alias);
    return alias;
  }
}

const dialectOf = (knex: Knex): Dialect => (isPostgres(knex) ? "postgres" : "sqlite");

/** `subscribers s` of the company restricted to the segment's members, with the CTEs it needs. */
export function segmentQuery(knex: Knex, definition: SegmentDefinition): Knex.QueryBuilder {
  const compiler = new SegmentCompiler(dialectOf(knex), definition);
  const where = compiler.group(definition.root);
  let query = knex.queryBuilder();
  for (const cte of compiler.ctes) query = query.with(cte.alias, knex.raw(cte.body.sql, [...cte.body.bindings] as Knex.RawBinding[]));
  return query
    .from("subscribers as s")
    .where("s.company_id", definition.companyId)
    .whereRaw(where.sql, [...where.bindings] as Knex.RawBinding[]);
}

/** The IDs of the segment's members (for other queries to use as a subquery). */
export const segmentMembersQuery = (knex: Knex, definition: SegmentDefinition): Knex.QueryBuilder => segmentQuery(knex, definition).select("s.id");

const CountsRow = t.type({ total: DbInteger, active: t.union([DbInteger, t.null]) });

export class KnexSegmentEvaluator implements SegmentEvaluator {
  constructor(private readonly knex: Knex) {}

  async count(definition: SegmentDefinition): Promise<SegmentCounts> {
    const [row] = await segmentQuery(this.knex, definition).select(
      this.knex.raw("count(*) as total"),
      this.knex.raw("sum(case when s.status = 'active' then 1 else 0 end) as active"),
    );
    const counts = decodeRow(CountsRow, row, "segment count");
    return { total: counts.total, active: counts.active ?? 0 };
  }

  async matches(definition: SegmentDefinition, subscriberId: string): Promise<boolean> {
    const row: unknown = await segmentQuery(this.knex, definition).where("s.id", subscriberId).first(this.knex.raw("1 as found"));
    return row !== undefined;
  }
}
