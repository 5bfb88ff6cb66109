import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateImportCommand, ImportPath } from "../../../core/subscriber-imports/commands.js";
import { CreateImport } from "../../../core/subscriber-imports/create-import.js";
import { GetImport } from "../../../core/subscriber-imports/get-import.js";
import { IMPORT_STATUSES } from "../../../core/subscriber-imports/model.js";
import { DUPLICATE_STRATEGIES } from "../../../core/subscribers/model.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const TAG = "Subscribers";
const keysOf = <T extends string>(values: readonly T[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<T, null>);
const Counts = t.record(t.string, t.number);

/** The import record (compat-reference §4, Import): reason counts sum to their totals. */
const ImportResource = t.type({
  id: Id,
  status: keysOf(IMPORT_STATUSES),
  fileName: NullableString,
  duplicateStrategy: keysOf(DUPLICATE_STRATEGIES),
  listIds: t.array(Id),
  totalRows: t.number,
  emailCount: t.number,
  duplicateRows: t.number,
  processedCount: t.number,
  addedCount: t.number,
  updatedCount: t.number,
  skippedCount: t.number,
  failedCount: t.number,
  chunkCount: t.number,
  processedChunks: t.number,
  failedChunks: t.number,
  skippedReasons: Counts,
  failedReasons: Counts,
  failedChunkReasons: Counts,
  error: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: NullableTimestamp,
});

/** Subscriber imports. */
export const subscriberImportsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/imports",
    tag: TAG,
    scopes: ["subscribers:import"],
    summary:
      "Import 1 to 5,000 contacts in the background (202); poll the import for progress. Rows that are not valid contacts fail on their own with a reason; the same idempotencyKey returns the first import (deduplicated: true)",
    body: CreateImportCommand,
    bodyLimit: "16mb",
    response: t.type({ import: ImportResource, deduplicated: t.boolean }),
    errors: [400, 403, 404, 422],
    successStatus: 202,
    handle: async ({ input, actor, container }) => map((created: object) => ({ ...created }))(await container.get(CreateImport).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/imports/:importId",
    tag: TAG,
    scopes: ["subscribers:read"],
    summary: "One import: its status, chunk progress, counts and the reasons rows were skipped or failed",
    params: ImportPath,
    response: t.type({ import: ImportResource }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) => map((found) => ({ import: found }))(await container.get(GetImport).execute(actor, input.params.importId)),
  }),
];
