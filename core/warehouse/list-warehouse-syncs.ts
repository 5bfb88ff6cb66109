import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import type { ListSyncsQuery } from "./commands.js";
import { describeSyncs } from "./get-warehouse-sync.js";
import type { WarehouseSyncRepository } from "./ports.js";
import type { SyncView } from "./view.js";

export interface SyncList {
  readonly syncs: SyncView[];
  readonly pagination: { readonly limit: number; readonly nextCursor: string | null; readonly hasMore: boolean };
}

const encodeCursor = (id: string) => Buffer.from(JSON.stringify({ before: id }), "utf8").toString("base64url");

function decodeCursor(cursor: string): string | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const before = (value as { before?: unknown } | null)?.before;
    return typeof before === "string" && before.length > 0 ? before : null;
  } catch {
    return null;
  }
}

/** GET /warehouse-syncs: newest first, `limit` (1-100, default 50) per page with a cursor (decisions.md, pagination). */
export class ListWarehouseSyncs {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly imports: SubscriberImportRepository,
  ) {}

  execute = async (actor: Actor, query: ListSyncsQuery): Promise<Result<SyncList>> => {
    const limit = query.limit ?? 50;
    const cursor = query.cursor?.trim() ? decodeCursor(query.cursor.trim()) : null;
    if (query.cursor?.trim() && !cursor) return fail(badRequest("cursor is not valid: start again without it"));
    const page = await this.syncs.list(actor.companyId, limit, cursor);
    const syncs = await describeSyncs(this.syncs, this.imports, actor.companyId, page.syncs);
    const last = page.syncs.at(-1);
    return ok({ syncs, pagination: { limit, nextCursor: page.hasMore && last ? encodeCursor(last.id) : null, hasMore: page.hasMore } });
  };
}
