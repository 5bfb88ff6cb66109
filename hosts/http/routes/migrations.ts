import { CancelMigration } from "../../../core/migrations/cancel-migration.js";
import { CreateMigrationCommand, MigrationPath, StartMigrationCommand } from "../../../core/migrations/commands.js";
import { CreateMigration } from "../../../core/migrations/create-migration.js";
import { GetMigrationRun } from "../../../core/migrations/get-migration-run.js";
import { StartMigration } from "../../../core/migrations/start-migration.js";
import { MigrationRunView, RunStatusView } from "../../../core/migrations/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Migrations";
/** Migrations from another email provider; payloads go under `data` (spec, envelope rule 1). */
export const migrationsRoutes = routeModule(
  { createMigration: CreateMigration, getMigrationRun: GetMigrationRun, startMigration: StartMigration, cancelMigration: CancelMigration },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/migrations",
      tag: TAG,
      scopes: ["migrations:write"],
      summary:
        "Connect to the previous provider (`csv` with the file's text, or `mailchimp` with an API key) and discover its resources; the run awaits approval. Credentials are stored sealed and never returned",
      body: CreateMigrationCommand,
      bodyLimit: "16mb",
      response: view({ data: MigrationRunView }),
      errors: [400, 403, 422],
      handle: async ({ input, actor }) => under("data")(await uses.createMigration.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/migrations/:runId",
      tag: TAG,
      scopes: ["migrations:read"],
      summary: "One migration run: discovery, approved plan, progress, report and errors",
      params: MigrationPath,
      response: view({ data: MigrationRunView }),
      errors: [403, 404],
      handle: async ({ input, actor }) => under("data")(await uses.getMigrationRun.execute(actor, input.params.runId)),
    }),
    defineRoute({
      method: "post",
      path: "/migrations/:runId/start",
      tag: TAG,
      scopes: ["migrations:write"],
      summary:
        "Approve resourceIds (when given) and queue the run; resourceOptions are honoured only with a nonempty resourceIds. A queued or running run is returned unchanged",
      params: MigrationPath,
      body: StartMigrationCommand,
      response: view({ data: RunStatusView }),
      errors: [400, 403, 404, 422],
      handle: async ({ input, actor }) => under("data")(await uses.startMigration.execute(actor, input.params.runId, input.body)),
    }),
    defineRoute({
      method: "post",
      path: "/migrations/:runId/cancel",
      tag: TAG,
      scopes: ["migrations:write"],
      summary: "Cancel a run: canceled at once unless running; a running run is cancel_requested and stops after its current batch",
      params: MigrationPath,
      response: view({ data: RunStatusView }),
      errors: [400, 403, 404],
      handle: async ({ input, actor }) => under("data")(await uses.cancelMigration.execute(actor, input.params.runId)),
    }),
  ],
);
