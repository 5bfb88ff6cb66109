import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateDataExportCommand, DataExportPath, ListRunsQuery, UpdateDataExportCommand } from "../../../core/data-exports/commands.js";
import { CreateDataExport } from "../../../core/data-exports/create-data-export.js";
import { DeleteDataExport } from "../../../core/data-exports/delete-data-export.js";
import { INVALID_INPUT } from "../../../core/data-exports/errors.js";
import { RUN_STATUSES, RUN_TRIGGERS } from "../../../core/data-exports/export-run.js";
import { GetDataExport } from "../../../core/data-exports/get-data-export.js";
import { ListDataExportRuns } from "../../../core/data-exports/list-data-export-runs.js";
import { ListDataExports } from "../../../core/data-exports/list-data-exports.js";
import { DATASETS, EXPORT_STATUSES, FREQUENCIES, PROVIDERS } from "../../../core/data-exports/model.js";
import { RequestDataExportRun } from "../../../core/data-exports/request-data-export-run.js";
import { TestDataExportConnection } from "../../../core/data-exports/test-data-export-connection.js";
import { UpdateDataExport } from "../../../core/data-exports/update-data-export.js";
import { decode } from "../../../core/shared/codecs.js";
import { toJsonSchema, withSchema } from "../../../core/shared/json-schema.js";
import type { Result } from "../../../core/shared/result.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const TAG = "Data exports";
const keysOf = <T extends string>(values: readonly T[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<T, null>);
const partialOf = <C extends t.Mixed>(codec: C) => t.partial(Object.fromEntries(DATASETS.map((dataset) => [dataset, codec])) as Record<(typeof DATASETS)[number], C>);

/** The spec's Data export resource: the access key ID masked, the secret never present. */
const DataExportResource = t.type({
  id: Id,
  name: t.string,
  provider: keysOf(PROVIDERS),
  bucket: t.string,
  region: t.string,
  endpoint: NullableString,
  pathPrefix: t.string,
  accessKeyId: withSchema(new t.Type<string, string, unknown>("MaskedAccessKeyId", t.string.is, t.string.validate, t.identity), {
    type: "string",
    description: "masked: the first and last four characters of a long key ID, else only asterisks",
  }),
  datasets: t.array(keysOf(DATASETS)),
  frequency: keysOf(FREQUENCIES),
  isEnabled: t.boolean,
  status: keysOf(EXPORT_STATUSES),
  startFrom: Timestamp,
  exportedThrough: partialOf(NullableString),
  nextRunAt: NullableTimestamp,
  lastRunAt: NullableTimestamp,
  lastSuccessAt: NullableTimestamp,
  lastError: NullableString,
  lastErrorAt: NullableTimestamp,
  consecutiveFailures: t.number,
  totalRowsExported: t.number,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const DatasetRunResource = t.type({ rows: t.number, files: t.number, bytes: t.number, from: NullableString, through: NullableString, note: NullableString });
const FileResource = t.type({
  dataset: keysOf(DATASETS),
  key: t.string,
  rows: t.number,
  bytes: t.number,
  firstRecordedAt: NullableTimestamp,
  lastRecordedAt: NullableTimestamp,
});
const RunResource = t.type({
  id: Id,
  dataExportId: Id,
  trigger: keysOf(RUN_TRIGGERS),
  status: keysOf(RUN_STATUSES),
  rowsExported: t.number,
  filesWritten: t.number,
  bytesWritten: t.number,
  datasets: partialOf(DatasetRunResource),
  files: t.array(FileResource),
  manifestKey: NullableString,
  error: NullableString,
  createdAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp,
  updatedAt: Timestamp,
});

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

const WRITE_ERRORS = "400 with code invalid_input (a rule broken) or connection_failed (the test file could not be written; nothing saved); 422 with code invalid_input (wrong types, unknown datasets)";

/** Data exports (spec, Endpoints > Data exports; the run, runs and test routes are this service's). */
export const dataExportsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/data-exports",
    tag: TAG,
    scopes: ["data_exports:write", "subscribers:read", "analytics:read"],
    summary: `Create a data export to an S3 or GCS bucket. A test file is written to <pathPrefix>/_service/connection-test.json first; the first export starts at once. ${WRITE_ERRORS}. Not for the marketer role`,
    body: undecoded(CreateDataExportCommand),
    response: t.type({ dataExport: DataExportResource }),
    errors: [400, 403, 422],
    handle: async ({ input, actor, container }) => {
      const command = decodeBody(CreateDataExportCommand, input.body);
      if (command._tag === "Left") return command;
      return map((dataExport) => ({ dataExport }))(await container.get(CreateDataExport).execute(actor, command.right));
    },
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/data-exports",
    tag: TAG,
    scopes: ["data_exports:read"],
    summary: "List the company's data exports. Not for the marketer role",
    response: t.type({ dataExports: t.array(DataExportResource) }),
    errors: [403],
    handle: async ({ actor, container }) => map((dataExports) => ({ dataExports }))(await container.get(ListDataExports).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/data-exports/:id",
    tag: TAG,
    scopes: ["data_exports:read"],
    summary: "One data export; 404 {success:false, code:'not_found', error}",
    params: DataExportPath,
    response: t.type({ dataExport: DataExportResource }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) => map((dataExport) => ({ dataExport }))(await container.get(GetDataExport).execute(actor, input.params.id)),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/data-exports/:id",
    tag: TAG,
    scopes: ["data_exports:write"],
    summary: `Rename, change the frequency, pause (isEnabled false) or resume (a run starts at once), or rotate the credentials (accessKeyId with secretAccessKey, tested with a new connection test file first). Destination, datasets and startFrom are fixed. ${WRITE_ERRORS}; 404 code not_found`,
    params: DataExportPath,
    body: undecoded(UpdateDataExportCommand),
    response: t.type({ dataExport: DataExportResource }),
    errors: [400, 403, 404, 422],
    handle: async ({ input, actor, container }) => {
      const command = decodeBody(UpdateDataExportCommand, input.body);
      if (command._tag === "Left") return command;
      return map((dataExport) => ({ dataExport }))(await container.get(UpdateDataExport).execute(actor, input.params.id, command.right));
    },
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/data-exports/:id",
    tag: TAG,
    scopes: ["data_exports:write"],
    summary: "Delete a data export: no more files are written; files already in the bucket stay. 404 code not_found",
    params: DataExportPath,
    response: t.type({ deleted: t.literal(true), id: Id, message: t.string }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) => map((deleted: object) => ({ ...deleted }))(await container.get(DeleteDataExport).execute(actor, input.params.id)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/data-exports/:id/runs",
    tag: TAG,
    scopes: ["data_exports:read"],
    summary: "The export's runs, newest first, with their progress (rows, files, bytes per dataset) and the files committed; cursor pagination",
    params: DataExportPath,
    query: ListRunsQuery,
    response: t.type({ runs: t.array(RunResource), pagination: t.type({ limit: t.number, nextCursor: NullableString, hasMore: t.boolean }) }),
    errors: [400, 403, 404, 422],
    handle: async ({ input, actor, container }) => map((listing: object) => ({ ...listing }))(await container.get(ListDataExportRuns).execute(actor, input.params.id, input.query)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/data-exports/:id/run",
    tag: TAG,
    scopes: ["data_exports:write"],
    summary: "Run the export now (202). When a run is already queued or running, that run is returned (queued: false) and no other starts. 400 when paused; 404 code not_found",
    params: DataExportPath,
    response: t.type({ run: RunResource, dataExport: DataExportResource, queued: t.boolean }),
    errors: [400, 403, 404],
    successStatus: 202,
    handle: async ({ input, actor, container }) => map((requested: object) => ({ ...requested }))(await container.get(RequestDataExportRun).execute(actor, input.params.id)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/data-exports/:id/test",
    tag: TAG,
    scopes: ["data_exports:write"],
    summary: "Write the connection test file again with the stored credentials. 400 code connection_failed with the destination's reason; 404 code not_found",
    params: DataExportPath,
    response: t.type({ connectionTest: t.type({ ok: t.literal(true), key: t.string, testedAt: Timestamp }) }),
    errors: [400, 403, 404],
    handle: async ({ input, actor, container }) =>
      map((tested: { key: string; testedAt: string }) => ({ connectionTest: { ok: true, ...tested } }))(await container.get(TestDataExportConnection).execute(actor, input.params.id)),
  }),
];
