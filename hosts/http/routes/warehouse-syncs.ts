import * as t from "io-ts";
import { CreateConnectionCommand, CreateSyncCommand, ListSyncsQuery, RunSyncCommand, SyncPath, UpdateSyncCommand } from "../../../core/warehouse/commands.js";
import { CreateWarehouseConnection } from "../../../core/warehouse/create-warehouse-connection.js";
import { CreateWarehouseSync } from "../../../core/warehouse/create-warehouse-sync.js";
import { GetWarehouseSync } from "../../../core/warehouse/get-warehouse-sync.js";
import { ListWarehouseConnections } from "../../../core/warehouse/list-warehouse-connections.js";
import { ListWarehouseSyncRuns } from "../../../core/warehouse/list-warehouse-sync-runs.js";
import { ListWarehouseSyncs } from "../../../core/warehouse/list-warehouse-syncs.js";
import { QueueWarehouseSyncRun } from "../../../core/warehouse/queue-warehouse-sync-run.js";
import { UpdateWarehouseSync } from "../../../core/warehouse/update-warehouse-sync.js";
import { ConnectionView, RunView, SyncView } from "../../../core/warehouse/view.js";
import { NullableString, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Warehouse syncs";

/** Warehouse connections and syncs (spec, Warehouse syncs; decisions.md). */
export const warehouseSyncsRoutes = routeModule(
  {
    createWarehouseConnection: CreateWarehouseConnection,
    listWarehouseConnections: ListWarehouseConnections,
    createWarehouseSync: CreateWarehouseSync,
    listWarehouseSyncs: ListWarehouseSyncs,
    getWarehouseSync: GetWarehouseSync,
    updateWarehouseSync: UpdateWarehouseSync,
    listWarehouseSyncRuns: ListWarehouseSyncRuns,
    queueWarehouseSyncRun: QueueWarehouseSyncRun,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/warehouse-connections",
      tag: TAG,
      scopes: ["warehouse:write"],
      summary:
        "Connect a warehouse: postgres (a public host unless ALLOW_PRIVATE_DESTINATIONS) or sqlite (a file on the server, only with ALLOW_PRIVATE_DESTINATIONS). The connection is tested first; the URL is stored sealed and its password never returned",
      body: CreateConnectionCommand,
      response: view({ connection: ConnectionView }),
      errors: [400, 403, 422],
      handle: async ({ input, actor }) => under("connection")(await uses.createWarehouseConnection.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/warehouse-connections",
      tag: TAG,
      scopes: ["warehouse:read"],
      summary: "The company's warehouse connections, newest first (passwords masked)",
      response: view({ connections: t.readonlyArray(ConnectionView) }),
      errors: [403],
      handle: async ({ actor }) => under("connections")(await uses.listWarehouseConnections.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/warehouse-syncs",
      tag: TAG,
      scopes: ["warehouse:write"],
      summary:
        "Create a sync: a read query whose rows become contacts (mapping of email, first name and attributes), incremental on cursorColumn. The query is checked read-only for the mapped columns. The sync is saved idle: its first run comes when asked (POST .../run) or when its schedule comes due, one interval after creation",
      body: CreateSyncCommand,
      response: view({ sync: SyncView }),
      errors: [400, 403, 404, 422],
      handle: async ({ input, actor }) => under("sync")(await uses.createWarehouseSync.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/warehouse-syncs",
      tag: TAG,
      scopes: ["warehouse:read"],
      summary: "The company's syncs, newest first, each with its latest run",
      query: ListSyncsQuery,
      response: view({ syncs: t.readonlyArray(SyncView), pagination: view({ limit: t.number, nextCursor: NullableString, hasMore: t.boolean }) }),
      errors: [400, 403, 422],
      handle: async ({ input, actor }) => uses.listWarehouseSyncs.execute(actor, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/warehouse-syncs/:syncId",
      tag: TAG,
      scopes: ["warehouse:read"],
      summary: "One sync with latestRun; 404 not_found for an unknown sync or another company's",
      params: SyncPath,
      response: view({ sync: SyncView }),
      errors: [403, 404],
      handle: async ({ input, actor }) => under("sync")(await uses.getWarehouseSync.execute(actor, input.params.syncId)),
    }),
    defineRoute({
      method: "patch",
      path: "/warehouse-syncs/:syncId",
      tag: TAG,
      scopes: ["warehouse:write"],
      summary: "Rename, pause or resume (isEnabled), change frequency, lists, opt-in mode, automations or limits, or request a full resync",
      params: SyncPath,
      body: UpdateSyncCommand,
      response: view({ sync: SyncView }),
      errors: [400, 403, 404, 422],
      handle: async ({ input, actor }) => under("sync")(await uses.updateWarehouseSync.execute(actor, input.params.syncId, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/warehouse-syncs/:syncId/runs",
      tag: TAG,
      scopes: ["warehouse:read"],
      summary: "The sync's 20 most recent runs, newest first",
      params: SyncPath,
      response: view({ runs: t.readonlyArray(RunView) }),
      errors: [403, 404],
      handle: async ({ input, actor }) => under("runs")(await uses.listWarehouseSyncRuns.execute(actor, input.params.syncId)),
    }),
    defineRoute({
      method: "post",
      path: "/warehouse-syncs/:syncId/run",
      tag: TAG,
      scopes: ["warehouse:write"],
      summary:
        "Run the sync now (202; the run's isManual is true, a scheduled run's false); fullResync ignores the cursor. While a run is queued or running, that run is returned (alreadyRunning: true)",
      params: SyncPath,
      body: RunSyncCommand,
      response: view({ run: RunView, alreadyRunning: t.boolean }),
      errors: [403, 404, 422],
      successStatus: 202,
      handle: async ({ input, actor }) => uses.queueWarehouseSyncRun.execute(actor, input.params.syncId, input.body),
    }),
  ],
);
