import * as t from "io-ts";
import type { Actor } from "../shared/actor.js";
import { IsoDate, TrimmedNonEmpty } from "../shared/codecs.js";
import { paginationOf, readCursorPage, type Pagination } from "../shared/pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { ListRunsQuery } from "./commands.js";
import { barMarketer, dataExportNotFound } from "./errors.js";
import type { DataExportRepository, RunPage } from "./ports.js";
import { toRunView, type ExportRunView } from "./view.js";

export interface RunListing {
  readonly runs: readonly ExportRunView[];
  readonly pagination: Pagination;
}

/** A cursor's position: the last run shown (its creation time and ID). */
const RunPosition = t.type({ c: IsoDate, i: TrimmedNonEmpty });

/** GET /data-exports/{id}/runs: newest first, with the decisions.md cursor pagination. */
export class ListDataExportRuns {
  constructor(private readonly exports: DataExportRepository) {}

  execute = async (actor: Actor, id: string, query: ListRunsQuery): Promise<Result<RunListing>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const page = readCursorPage(query, RunPosition);
    if (page._tag === "Left") return page;
    const { limit, after } = page.right;
    if (!(await this.exports.find(actor.companyId, id))) return fail(dataExportNotFound());
    const before: RunPage["before"] = after && { createdAt: after.c, id: after.i };
    const rows = await this.exports.listRuns(actor.companyId, id, { limit: limit + 1, before });
    const runs = rows.slice(0, limit).map(toRunView);
    return ok({ runs, pagination: paginationOf(limit, rows.length > limit, runs.at(-1), (last) => ({ c: last.createdAt, i: last.id })) });
  };
}
