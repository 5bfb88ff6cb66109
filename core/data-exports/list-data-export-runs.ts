import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { DEFAULT_RUNS_PAGE, MAX_RUNS_PAGE, type ListRunsQuery } from "./commands.js";
import { barMarketer, dataExportNotFound } from "./errors.js";
import type { DataExportRepository, RunPage } from "./ports.js";
import { toRunView, type ExportRunView } from "./view.js";

export interface RunListing {
  readonly runs: readonly ExportRunView[];
  readonly pagination: { readonly limit: number; readonly nextCursor: string | null; readonly hasMore: boolean };
}

/** Opaque to clients: the last run shown, base64url JSON. */
const encodeCursor = (run: { createdAt: string; id: string }): string => Buffer.from(JSON.stringify({ c: run.createdAt, i: run.id })).toString("base64url");

function decodeCursor(cursor: string): RunPage["before"] {
  try {
    const { c, i } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
    const createdAt = typeof c === "string" ? new Date(c) : null;
    if (typeof i !== "string" || i === "" || !createdAt || Number.isNaN(createdAt.getTime())) return null;
    return { createdAt, id: i };
  } catch {
    return null;
  }
}

/** GET /data-exports/{id}/runs: newest first, with the decisions.md cursor pagination. */
export class ListDataExportRuns {
  constructor(private readonly exports: DataExportRepository) {}

  execute = async (actor: Actor, id: string, query: ListRunsQuery): Promise<Result<RunListing>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const limit = Math.min(query.limit ?? DEFAULT_RUNS_PAGE, MAX_RUNS_PAGE);
    const rawCursor = query.cursor?.trim() ?? "";
    const before = rawCursor === "" ? null : decodeCursor(rawCursor);
    if (rawCursor !== "" && !before) return fail(badRequest("cursor is not valid: start again without it"));
    if (!(await this.exports.find(actor.companyId, id))) return fail(dataExportNotFound());
    const rows = await this.exports.listRuns(actor.companyId, id, { limit: limit + 1, before });
    const runs = rows.slice(0, limit).map(toRunView);
    const hasMore = rows.length > limit;
    const last = runs[runs.length - 1];
    return ok({ runs, pagination: { limit, nextCursor: hasMore && last ? encodeCursor(last) : null, hasMore } });
  };
}
