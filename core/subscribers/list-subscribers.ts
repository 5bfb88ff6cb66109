import { isRight } from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Clock } from "../ports/clock.js";
import { checkedDefinition } from "../segments/checked-definition.js";
import type { SegmentDefinition, SegmentRepository } from "../segments/ports.js";
import type { Actor } from "../shared/actor.js";
import { Email, IsoDate, TrimmedNonEmpty } from "../shared/codecs.js";
import { badRequest, notFound } from "../shared/errors.js";
import { decodeCursor, encodeCursor } from "../shared/pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import { normalizeTagName } from "../tags/model.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ListSubscribersQuery } from "./commands.js";
import type { TaggedSubscriber } from "./model.js";
import type { AttributeFilter, PagePosition, SubscriberCriteria, SubscriberOrder, SubscriberQueries, TextSearch } from "./queries.js";
import { toSubscriberView, type SubscriberListingView } from "./view.js";

interface Cursor {
  readonly order: SubscriberOrder;
  readonly after: PagePosition;
}

const INVALID_CURSOR = () => badRequest("cursor is not valid for this search: start again without it");

/** A cursor's position: the order and the last contact shown. */
const CursorPosition = t.union([t.type({ o: t.literal("n"), c: IsoDate, i: TrimmedNonEmpty }), t.type({ o: t.literal("i"), i: TrimmedNonEmpty })]);

const positionOf = (order: SubscriberOrder, last: TaggedSubscriber) =>
  order === "newest" ? { o: "n", c: last.createdAt.toISOString(), i: last.id } : { o: "i", i: last.id };

function readCursor(cursor: string): Cursor | null {
  const position = decodeCursor(cursor, CursorPosition);
  if (!position) return null;
  return position.o === "i"
    ? { order: "idAscending", after: { createdAt: new Date(0), id: position.i } }
    : { order: "newest", after: { createdAt: position.c, id: position.i } };
}

/** A full email matches exactly; anything else is a substring. */
function textSearch(raw: string | undefined, scope: "anywhere" | "emailContains"): TextSearch | null {
  const text = raw?.trim() ?? "";
  if (text === "") return null;
  const email = Email.decode(text);
  if (isRight(email)) return { kind: "exactEmail", email: email.right };
  return { kind: scope, text: text.toLowerCase() };
}

/** `name:value` (split at the first colon); `is_not_empty` needs only the name. */
function attributeFilter(query: ListSubscribersQuery): Result<AttributeFilter | null> {
  if (query.attribute === undefined || query.attribute.trim() === "") return ok(null);
  const operator = query.attributeOperator ?? "is";
  const colon = query.attribute.indexOf(":");
  if (colon < 0 && operator !== "is_not_empty") return fail(badRequest("attribute must be given as name:value"));
  const name = (colon < 0 ? query.attribute : query.attribute.slice(0, colon)).trim();
  if (name === "") return fail(badRequest("attribute must be given as name:value"));
  if (/["\\]/.test(name)) return fail(badRequest("attribute name must not contain quotes or backslashes"));
  return ok({ name, operator, value: colon < 0 ? null : query.attribute.slice(colon + 1) });
}

/**
 * GET /subscribers: the company's contacts matching every filter given, newest first (attribute
 * searches go by ID ascending with a cursor and no total), by page or by cursor.
 */
export class ListSubscribers {
  constructor(
    private readonly queries: SubscriberQueries,
    private readonly segments: SegmentRepository,
    private readonly clock: Clock,
    private readonly segmentDocsUrl: string,
  ) {}

  execute = async (actor: Actor, query: ListSubscribersQuery): Promise<Result<SubscriberListingView>> => {
    const criteria = await this.criteria(actor.companyId, query);
    if (criteria._tag === "Left") return criteria;
    const order: SubscriberOrder = criteria.right.attribute ? "idAscending" : "newest";
    const limit = Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);

    const usesCursor = query.cursor !== undefined && query.cursor.trim() !== "";
    const cursor = usesCursor ? readCursor(query.cursor!.trim()) : null;
    if (usesCursor && (!cursor || cursor.order !== order)) return fail(INVALID_CURSOR());
    const page = usesCursor ? null : (query.page ?? 1);

    // One row more than shown says whether another page exists, with or without a total.
    const rows = await this.queries.find(criteria.right, { order, limit: limit + 1, offset: page ? (page - 1) * limit : 0, after: cursor?.after ?? null });
    const shown = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    const total = query.includeTotal === false || order === "idAscending" ? null : await this.queries.count(criteria.right);
    const last = shown[shown.length - 1];
    return ok({
      subscribers: shown.map(toSubscriberView),
      pagination: {
        page,
        limit,
        total,
        totalPages: total === null ? null : Math.ceil(total / limit),
        nextCursor: hasMore && last ? encodeCursor(positionOf(order, last)) : null,
        hasMore,
      },
      returned: shown.length,
      truncated: hasMore,
    });
  };

  private async criteria(companyId: string, query: ListSubscribersQuery): Promise<Result<SubscriberCriteria>> {
    const attribute = attributeFilter(query);
    if (attribute._tag === "Left") return attribute;
    const segmentId = query.segmentId?.trim() ?? "";
    if (segmentId && attribute.right) return fail(badRequest("attribute cannot be combined with segmentId"));
    const segment = segmentId ? await this.segment(companyId, segmentId) : ok(null);
    if (segment._tag === "Left") return segment;
    const listId = await this.listId(companyId, query);
    if (listId._tag === "Left") return listId;

    const search = [textSearch(query.query, "anywhere"), textSearch(query.email, "emailContains")].filter((s): s is TextSearch => s !== null);
    const tags = [
      ...new Set(
        (query.tags ?? "")
          .split(",")
          .map(normalizeTagName)
          .filter((tag) => tag !== ""),
      ),
    ];
    return ok({
      companyId,
      search,
      tags,
      listId: listId.right,
      segment: segment.right,
      status: query.status === undefined || query.status === "all" ? null : query.status,
      unsubscribedAfter: query.unsubscribedAfter ?? null,
      unsubscribedBefore: query.unsubscribedBefore ?? null,
      attribute: attribute.right,
    });
  }

  /** `listId`, `listName`, or `list` (an ID or a name); a list the company does not have is 404. */
  private async listId(companyId: string, query: ListSubscribersQuery): Promise<Result<string | null>> {
    const listId = query.listId?.trim();
    const listName = query.listName?.trim();
    const list = query.list?.trim();
    const reference = listId ? { id: listId } : listName ? { name: listName } : list ? { id: list, name: list } : null;
    if (!reference) return ok(null);
    const found = await this.queries.findListId(companyId, reference);
    return found ? ok(found) : fail(notFound("List not found"));
  }

  /** The segment's evaluable definition, checked against the reference limits like a count. */
  private async segment(companyId: string, segmentId: string): Promise<Result<SegmentDefinition>> {
    const segment = await this.segments.find(companyId, segmentId);
    if (!segment) return fail(notFound("Segment not found"));
    return checkedDefinition(this.segments, { companyId, segmentId, root: segment.root, now: this.clock.now(), docsUrl: this.segmentDocsUrl });
  }
}
