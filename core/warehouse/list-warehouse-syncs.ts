import * as t from "io-ts";
import type { Actor } from "../shared/actor.js";
import { TrimmedNonEmpty } from "../shared/codecs.js";
import { paginationOf, readCursorPage, type Pagination } from "../shared/pagination.js";
import { ok, type Result } from "../shared/result.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import type { ListSyncsQuery } from "./commands.js";
import { describeSyncs } from "./get-warehouse-sync.js";
import type { WarehouseSyncRepository } from "./ports.js";
import type { SyncView } from "./view.js";

export interface SyncList {
  readonly syncs: SyncView[];
  readonly pagination: Pagination;
}

/** A cursor's position: the last sync shown (the next page holds older IDs). */
const SyncPosition = t.type({ before: TrimmedNonEmpty });

/** GET /warehouse-syncs: newest first, `limit` (1-100, default 50) per page with a cursor (decisions.md, pagination). */
export class ListWarehouseSyncs {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly imports: SubscriberImportRepository,
  ) {}

  execute = async (actor: Actor, query: ListSyncsQuery): Promise<Result<SyncList>> => {
    const asked = readCursorPage(query, SyncPosition);
    if (asked._tag === "Left") return asked;
    const { limit, after } = asked.right;
    const page = await this.syncs.list(actor.companyId, limit, after?.before ?? null);
    const syncs = await describeSyncs(this.syncs, this.imports, actor.companyId, page.syncs);
    return ok({ syncs, pagination: paginationOf(limit, page.hasMore, page.syncs.at(-1), (last) => ({ before: last.id })) });
  };
}
