import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateDataExportCommand, DataExportPath, ListRunsQuery, UpdateDataExportCommand } from "../../../core/data-exports/commands.js";
import { CreateDataExport } from "../../../core/data-exports/create-data-export.js";
import { DeleteDataExport } from "../../../core/data-exports/delete-data-export.js";
import { INVALID_INPUT } from "../../../core/data-exports/errors.js";
import { GetDataExport } from "../../../core/data-exports/get-data-export.js";
import { ListDataExportRuns } from "../../../core/data-exports/list-data-export-runs.js";
import { ListDataExports } from "../../../core/data-exports/list-data-exports.js";
import { RequestDataExportRun } from "../../../core/data-exports/request-data-export-run.js";
import type { ConnectionTest } from "../../../core/data-exports/connection-test.js";
import { TestDataExportConnection } from "../../../core/data-exports/test-data-export-connection.js";
import { UpdateDataExport } from "../../../core/data-exports/update-data-export.js";
import { decode } from "../../../core/shared/codecs.js";
import { toJsonSchema, withSchema } from "../../../core/shared/json-schema.js";
import type { Result } from "../../../core/shared/result.js";
import { DataExportView, ExportRunView } from "../../../core/data-exports/view.js";
import { Id, NullableString, Timestamp, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Data exports";
/**
 * A body taken as it comes and decoded in the handler, so that a 422 carries the spec's
 * `code: invalid_input` like the other data export errors; documented with the real schema.
 */
const undecoded = <A>(codec: t.Type<A, unknown, unknown>) =>
  withSchema(new t.Type<unknown, unknown, unknown>(`${codec.name}Body`, t.unknown.is, t.unknown.validate, t.identity), toJsonSchema(codec));

function decodeBody<A>(codec: t.Type<A, unknown, unknown>, body: unknown): Result<A> {
  const decoded = decode(codec, body);
  return decoded._tag === "Left" ? { _tag: "Left", left: { ...decoded.left, code: INVALID_INPUT } } : decoded;
}

const WRITE_ERRORS =
  "400 with code invalid_input (a rule broken) or connection_failed (the test file could not be written; nothing saved); 422 with code invalid_input (wrong types, unknown datasets)";

/** Data exports (spec, Endpoints > Data exports; the run, runs and test routes are this service's). */
export const dataExportsRoutes = routeModule(
  {
    createDataExport: CreateDataExport,
    listDataExports: ListDataExports,
    getDataExport: GetDataExport,
    updateDataExport: UpdateDataExport,
    deleteDataExport: DeleteDataExport,
    listDataExportRuns: ListDataExportRuns,
    requestDataExportRun: RequestDataExportRun,
    testDataExportConnection: TestDataExportConnection,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/data-exports",
      tag: TAG,
      scopes: ["data_exports:write", "subscribers:read", "analytics:read"],
      summary: `Create a data export to an S3 or GCS bucket, with HMAC keys (accessKeyId, secretAccessKey) or, for gcs, a service account's JSON key (serviceAccountKey; both or neither: 422). A test file is written to <pathPrefix>/_service/connection-test.json first; the first export starts at once. ${WRITE_ERRORS}. Not for the marketer role`,
      body: undecoded(CreateDataExportCommand),
      response: view({ dataExport: DataExportView }),
      errors: [400, 403, 422],
      handle: async ({ input, actor }) => {
        const command = decodeBody(CreateDataExportCommand, input.body);
        if (command._tag === "Left") return command;
        return under("dataExport")(await uses.createDataExport.execute(actor, command.right));
      },
    }),
    defineRoute({
      method: "get",
      path: "/data-exports",
      tag: TAG,
      scopes: ["data_exports:read"],
      summary: "List the company's data exports. Not for the marketer role",
      response: view({ dataExports: t.readonlyArray(DataExportView) }),
      errors: [403],
      handle: async ({ actor }) => under("dataExports")(await uses.listDataExports.execute(actor)),
    }),
    defineRoute({
      method: "get",
      path: "/data-exports/:id",
      tag: TAG,
      scopes: ["data_exports:read"],
      summary: "One data export; 404 {success:false, code:'not_found', error}",
      params: DataExportPath,
      response: view({ dataExport: DataExportView }),
      errors: [403, 404],
      handle: async ({ input, actor }) => under("dataExport")(await uses.getDataExport.execute(actor, input.params.id)),
    }),
    defineRoute({
      method: "patch",
      path: "/data-exports/:id",
      tag: TAG,
      scopes: ["data_exports:write"],
      summary: `Rename, change the frequency, pause (isEnabled false) or resume (a run starts at once), or rotate the credentials (accessKeyId with secretAccessKey, or for gcs serviceAccountKey; tested with a new connection test file first). Destination, datasets and startFrom are fixed. ${WRITE_ERRORS}; 404 code not_found`,
      params: DataExportPath,
      body: undecoded(UpdateDataExportCommand),
      response: view({ dataExport: DataExportView }),
      errors: [400, 403, 404, 422],
      handle: async ({ input, actor }) => {
        const command = decodeBody(UpdateDataExportCommand, input.body);
        if (command._tag === "Left") return command;
        return under("dataExport")(await uses.updateDataExport.execute(actor, input.params.id, command.right));
      },
    }),
    defineRoute({
      method: "delete",
      path: "/data-exports/:id",
      tag: TAG,
      scopes: ["data_exports:write"],
      summary: "Delete a data export: no more files are written; files already in the bucket stay. 404 code not_found",
      params: DataExportPath,
      response: view({ deleted: t.literal(true), id: Id, message: t.string }),
      errors: [403, 404],
      handle: async ({ input, actor }) => uses.deleteDataExport.execute(actor, input.params.id),
    }),
    defineRoute({
      method: "get",
      path: "/data-exports/:id/runs",
      tag: TAG,
      scopes: ["data_exports:read"],
      summary: "The export's runs, newest first, with their progress (rows, files, bytes per dataset) and the files committed; cursor pagination",
      params: DataExportPath,
      query: ListRunsQuery,
      response: view({ runs: t.readonlyArray(ExportRunView), pagination: view({ limit: t.number, nextCursor: NullableString, hasMore: t.boolean }) }),
      errors: [400, 403, 404, 422],
      handle: async ({ input, actor }) => uses.listDataExportRuns.execute(actor, input.params.id, input.query),
    }),
    defineRoute({
      method: "post",
      path: "/data-exports/:id/run",
      tag: TAG,
      scopes: ["data_exports:write"],
      summary:
        "Run the export now (202). When a run is already queued or running, that run is returned (queued: false) and no other starts. 400 when paused; 404 code not_found",
      params: DataExportPath,
      response: view({ run: ExportRunView, dataExport: DataExportView, queued: t.boolean }),
      errors: [400, 403, 404],
      successStatus: 202,
      handle: async ({ input, actor }) => uses.requestDataExportRun.execute(actor, input.params.id),
    }),
    defineRoute({
      method: "post",
      path: "/data-exports/:id/test",
      tag: TAG,
      scopes: ["data_exports:write"],
      summary: "Write the connection test file again with the stored credentials. 400 code connection_failed with the destination's reason; 404 code not_found",
      params: DataExportPath,
      response: view({ connectionTest: view({ ok: t.literal(true), key: t.string, testedAt: Timestamp }) }),
      errors: [400, 403, 404],
      handle: async ({ input, actor }) =>
        map((tested: ConnectionTest) => ({ connectionTest: { ok: true as const, ...tested } }))(
          await uses.testDataExportConnection.execute(actor, input.params.id),
        ),
    }),
  ],
);
