import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CancelMigration } from "../../../core/migrations/cancel-migration.js";
import { CreateMigrationCommand, MigrationPath, StartMigrationCommand } from "../../../core/migrations/commands.js";
import { CreateMigration } from "../../../core/migrations/create-migration.js";
import { GetMigrationRun } from "../../../core/migrations/get-migration-run.js";
import { MIGRATION_PROVIDERS, RESOURCE_TYPES, RUN_STATUSES } from "../../../core/migrations/model.js";
import { DUPLICATE_STRATEGIES, SUBSCRIBER_STATUSES } from "../../../core/subscribers/model.js";
import { StartMigration } from "../../../core/migrations/start-migration.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const TAG = "Migrations";
const keysOf = <T extends string>(values: readonly T[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<T, null>);

const ResourceOptions = t.partial({ statuses: t.array(keysOf(SUBSCRIBER_STATUSES)), duplicateStrategy: keysOf(DUPLICATE_STRATEGIES), createdSince: Timestamp });
const Resource = t.type({ id: t.string, type: keysOf(RESOURCE_TYPES), count: t.number, name: t.string });

/** The spec resource "Migration run"; the source's credentials never appear. */
const RunResource = t.type({
  id: Id,
  provider: keysOf(MIGRATION_PROVIDERS),
  status: keysOf(RUN_STATUSES),
  discovery: t.type({ provider: keysOf(MIGRATION_PROVIDERS), resources: t.array(Resource) }),
  approvedPlan: t.type({ resourceIds: t.array(t.string), resourceOptions: t.record(t.string, ResourceOptions), approvedAt: NullableTimestamp }),
  progress: t.type({
    batches: t.number,
    resourcesDone: t.number,
    resources: t.array(
      t.type({
        id: t.string,
        type: keysOf(RESOURCE_TYPES),
        total: t.number,
        processed: t.number,
        queued: t.number,
        created: t.number,
        skipped: t.number,
        done: t.boolean,
        importId: NullableString,
      }),
    ),
  }),
  report: t.type({
    subscribersQueued: t.number,
    draftCampaignsCreated: t.number,
    draftSequencesCreated: t.number,
    draftTransactionalEmailsCreated: t.number,
    templatesCreated: t.number,
  }),
  errors: t.array(t.type({ resourceId: NullableString, message: t.string, at: Timestamp })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  startedAt: NullableTimestamp,
  completedAt: NullableTimestamp,
});
const RunStatus = t.type({ id: Id, status: keysOf(RUN_STATUSES) });

/** Migrations from another email provider; payloads go under `data` (spec, envelope rule 1). */
export const migrationsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/migrations",
    tag: TAG,
    scopes: ["migrations:write"],
    summary:
      "Connect to the previous provider (`csv` with the file's text, or `mailchimp` with an API key) and discover its resources; the run awaits approval. Credentials are stored sealed and never returned",
    body: CreateMigrationCommand,
    bodyLimit: "16mb",
    response: t.type({ data: RunResource }),
    errors: [400, 403, 422],
    handle: async ({ input, actor, container }) => map((data) => ({ data }))(await container.get(CreateMigration).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/migrations/:runId",
    tag: TAG,
    scopes: ["migrations:read"],
    summary: "One migration run: discovery, approved plan, progress, report and errors",
    params: MigrationPath,
    response: t.type({ data: RunResource }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) => map((data) => ({ data }))(await container.get(GetMigrationRun).execute(actor, input.params.runId)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/migrations/:runId/start",
    tag: TAG,
    scopes: ["migrations:write"],
    summary:
      "Approve resourceIds (when given) and queue the run; resourceOptions are honoured only with a nonempty resourceIds. A queued or running run is returned unchanged",
    params: MigrationPath,
    body: StartMigrationCommand,
    response: t.type({ data: RunStatus }),
    errors: [400, 403, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((data) => ({ data }))(await container.get(StartMigration).execute(actor, input.params.runId, input.body)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/migrations/:runId/cancel",
    tag: TAG,
    scopes: ["migrations:write"],
    summary: "Cancel a run: canceled at once unless running; a running run is cancel_requested and stops after its current batch",
    params: MigrationPath,
    response: t.type({ data: RunStatus }),
    errors: [400, 403, 404],
    handle: async ({ input, actor, container }) => map((data) => ({ data }))(await container.get(CancelMigration).execute(actor, input.params.runId)),
  }),
];
