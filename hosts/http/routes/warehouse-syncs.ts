import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { IMPORT_STATUSES } from "../../../core/subscriber-imports/model.js";
import { OPT_IN_MODES } from "../../../core/subscribers/model.js";
import { CreateConnectionCommand, CreateSyncCommand, ListSyncsQuery, RunSyncCommand, SyncPath, UpdateSyncCommand } from "../../../core/warehouse/commands.js";
import { CreateWarehouseConnection } from "../../../core/warehouse/create-warehouse-connection.js";
import { CreateWarehouseSync } from "../../../core/warehouse/create-warehouse-sync.js";
import { GetWarehouseSync } from "../../../core/warehouse/get-warehouse-sync.js";
import { ListWarehouseConnections } from "../../../core/warehouse/list-warehouse-connections.js";
import { ListWarehouseSyncRuns } from "../../../core/warehouse/list-warehouse-sync-runs.js";
import { ListWarehouseSyncs } from "../../../core/warehouse/list-warehouse-syncs.js";
import { CONNECTION_KINDS, FREQUENCY_NAMES, RUN_STATUSES, SYNC_KINDS, SYNC_STATUSES } from "../../../core/warehouse/model.js";
import { QueueWarehouseSyncRun } from "../../../core/warehouse/queue-warehouse-sync-run.js";
import { UpdateWarehouseSync } from "../../../core/warehouse/update-warehouse-sync.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const TAG = "Warehouse syncs";
const keysOf = <T extends string>(values: readonly T[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<T, null>);

/** A connection: the URL shown with its password replaced by `****`, never in plain text. */
const ConnectionResource = t.type({
  id: Id,
  name: t.string,
  kind: keysOf(CONNECTION_KINDS),
  url: t.string,
  hasPassword: t.boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const RunImport = t.type({
  id: Id,
  status: keysOf(IMPORT_STATUSES),
  totalRows: t.number,
  processedCount: t.number,
  addedCount: t.number,
  updatedCount: t.number,
  skippedCount: t.number,
  failedCount: t.number,
  error: NullableString,
  startedAt: Timestamp,
  finishedAt: NullableTimestamp,
});

/** A run (spec, Warehouse sync: latestRun), plus the cursor range it read and its error. */
const RunResource = t.type({
  id: Id,
  syncId: Id,
  status: keysOf(RUN_STATUSES),
  isManual: t.boolean,
  isFullResync: t.boolean,
  rowsRead: t.number,
  rowsUnchanged: t.number,
  rowsSynced: t.number,
  rowsSkipped: t.number,
  rowsFailed: t.number,
  errorSamples: t.array(t.type({ row: t.number, reason: t.string })),
  subscriberImportIds: t.array(Id),
  imports: t.array(RunImport),
  cursorFrom: NullableString,
  cursorTo: NullableString,
  rowLimitReached: t.boolean,
  error: NullableString,
  createdAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp,
});

/** The spec resource "Warehouse sync". */
const SyncResource = t.type({
  id: Id,
  connectionId: Id,
  name: t.string,
  kind: keysOf(SYNC_KINDS),
  query: t.string,
  mapping: t.type({ emailColumn: t.string, firstNameColumn: NullableString, attributes: t.array(t.type({ column: t.string, attribute: t.string })) }),
  cursorColumn: NullableString,
  cursorValue: NullableString,
  listIds: t.array(Id),
  optInMode: keysOf(OPT_IN_MODES),
  triggerAutomations: t.boolean,
  frequency: keysOf(FREQUENCY_NAMES),
  isEnabled: t.boolean,
  fullResyncRequested: t.boolean,
  maxRowsPerRun: t.number,
  statementTimeoutSeconds: t.number,
  status: keysOf(SYNC_STATUSES),
  nextRunAt: NullableTimestamp,
  lastRunAt: NullableTimestamp,
  lastSuccessAt: NullableTimestamp,
  lastErrorAt: NullableTimestamp,
  lastError: NullableString,
  consecutiveFailures: t.number,
  latestRun: t.union([RunResource, t.null]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Warehouse connections and syncs (spec, Warehouse syncs; decisions.md). */
export const warehouseSyncsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/warehouse-connections",
    tag: TAG,
    scopes: ["warehouse:write"],
    summary:
      "Connect a warehouse: postgres (a public host unless ALLOW_PRIVATE_DESTINATIONS) or sqlite (a file on the server, only with ALLOW_PRIVATE_DESTINATIONS). The connection is tested first; the URL is stored sealed and its password never returned",
    body: CreateConnectionCommand,
    response: t.type({ connection: ConnectionResource }),
    errors: [400, 403, 422],
    handle: async ({ input, actor, container }) => map((connection) => ({ connection }))(await container.get(CreateWarehouseConnection).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/warehouse-connections",
    tag: TAG,
    scopes: ["warehouse:read"],
    summary: "The company's warehouse connections, newest first (passwords masked)",
    response: t.type({ connections: t.array(ConnectionResource) }),
    errors: [403],
    handle: async ({ actor, container }) => map((connections) => ({ connections }))(await container.get(ListWarehouseConnections).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/warehouse-syncs",
    tag: TAG,
    scopes: ["warehouse:write"],
    summary:
      "Create a sync: a read query whose rows become contacts (mapping of email, first name and attributes), incremental on cursorColumn. The query is checked read-only for the mapped columns; an enabled sync's first run is queued at once",
    body: CreateSyncCommand,
    response: t.type({ sync: SyncResource }),
    errors: [400, 403, 404, 422],
    handle: async ({ input, actor, container }) => map((sync) => ({ sync }))(await container.get(CreateWarehouseSync).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/warehouse-syncs",
    tag: TAG,
    scopes: ["warehouse:read"],
    summary: "The company's syncs, newest first, each with its latest run",
    query: ListSyncsQuery,
    response: t.type({ syncs: t.array(SyncResource), pagination: t.type({ limit: t.number, nextCursor: NullableString, hasMore: t.boolean }) }),
    errors: [400, 403, 422],
    handle: async ({ input, actor, container }) => map((list: object) => ({ ...list }))(await container.get(ListWarehouseSyncs).execute(actor, input.query)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/warehouse-syncs/:syncId",
    tag: TAG,
    scopes: ["warehouse:read"],
    summary: "One sync with latestRun; 404 not_found for an unknown sync or another company's",
    params: SyncPath,
    response: t.type({ sync: SyncResource }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) => map((sync) => ({ sync }))(await container.get(GetWarehouseSync).execute(actor, input.params.syncId)),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/warehouse-syncs/:syncId",
    tag: TAG,
    scopes: ["warehouse:write"],
    summary: "Rename, pause or resume (isEnabled), change frequency, lists, opt-in mode, automations or limits, or request a full resync",
    params: SyncPath,
    body: UpdateSyncCommand,
    response: t.type({ sync: SyncResource }),
    errors: [400, 403, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((sync) => ({ sync }))(await container.get(UpdateWarehouseSync).execute(actor, input.params.syncId, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/warehouse-syncs/:syncId/runs",
    tag: TAG,
    scopes: ["warehouse:read"],
    summary: "The sync's 20 most recent runs, newest first",
    params: SyncPath,
    response: t.type({ runs: t.array(RunResource) }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) => map((runs) => ({ runs }))(await container.get(ListWarehouseSyncRuns).execute(actor, input.params.syncId)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/warehouse-syncs/:syncId/run",
    tag: TAG,
    scopes: ["warehouse:write"],
    summary: "Run the sync now (202); fullResync ignores the cursor. While a run is queued or running, that run is returned (alreadyRunning: true)",
    params: SyncPath,
    body: RunSyncCommand,
    response: t.type({ run: RunResource, alreadyRunning: t.boolean }),
    errors: [403, 404, 422],
    successStatus: 202,
    handle: async ({ input, actor, container }) =>
      map((queued: object) => ({ ...queued }))(await container.get(QueueWarehouseSyncRun).execute(actor, input.params.syncId, input.body)),
  }),
];
