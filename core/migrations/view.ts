import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { DUPLICATE_STRATEGIES, SUBSCRIBER_STATUSES } from "../subscribers/model.js";
import { MIGRATION_PROVIDERS, RESOURCE_TYPES, RUN_STATUSES, type MigrationRun } from "./model.js";

const Provider = oneOf(MIGRATION_PROVIDERS, "MigrationProvider");
const ResourceType = oneOf(RESOURCE_TYPES, "MigrationResourceType");
const RunStatus = oneOf(RUN_STATUSES, "MigrationRunStatus");

/** Per-resource filters, each absent when not set. */
const ResourceOptionsView = viewWithOptional(
  {},
  {
    statuses: t.readonlyArray(oneOf(SUBSCRIBER_STATUSES, "SubscriberStatus")),
    duplicateStrategy: oneOf(DUPLICATE_STRATEGIES, "DuplicateStrategy"),
    createdSince: Timestamp,
  },
  "ResourceOptions",
);

/** The run as the API shows it (spec resource "Migration run"); the source's credentials never appear. */
export const MigrationRunView = view(
  {
    id: Id,
    provider: Provider,
    status: RunStatus,
    discovery: view({ provider: Provider, resources: t.readonlyArray(view({ id: t.string, type: ResourceType, count: t.number, name: t.string })) }),
    approvedPlan: view({ resourceIds: t.readonlyArray(t.string), resourceOptions: t.record(t.string, ResourceOptionsView), approvedAt: NullableTimestamp }),
    progress: view({
      batches: t.number,
      resourcesDone: t.number,
      resources: t.readonlyArray(
        view({
          id: t.string,
          type: ResourceType,
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
    report: view({
      subscribersQueued: t.number,
      draftCampaignsCreated: t.number,
      draftSequencesCreated: t.number,
      draftTransactionalEmailsCreated: t.number,
      templatesCreated: t.number,
    }),
    errors: t.readonlyArray(view({ resourceId: NullableString, message: t.string, at: Timestamp })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    startedAt: NullableTimestamp,
    completedAt: NullableTimestamp,
  },
  "MigrationRun",
);
export type MigrationRunView = t.TypeOf<typeof MigrationRunView>;

/** What start and cancel answer: `{id, status}`. */
export const RunStatusView = view({ id: Id, status: RunStatus }, "MigrationRunStatus");
export type RunStatusView = t.TypeOf<typeof RunStatusView>;

export const toRunStatusView = (run: MigrationRun): RunStatusView => ({ id: run.id, status: run.status });

export const toMigrationRunView = (run: MigrationRun): MigrationRunView => ({
  id: run.id,
  provider: run.provider,
  status: run.status,
  discovery: { provider: run.discovery.provider, resources: run.discovery.resources },
  approvedPlan: {
    resourceIds: run.approvedPlan.resourceIds,
    resourceOptions: run.approvedPlan.resourceOptions,
    approvedAt: run.approvedPlan.approvedAt?.toISOString() ?? null,
  },
  progress: {
    batches: run.progress.batches,
    resourcesDone: run.progress.resources.filter((resource) => resource.done).length,
    resources: run.progress.resources,
  },
  report: run.report,
  errors: run.errors.map((error) => ({ resourceId: error.resourceId, message: error.message, at: error.at.toISOString() })),
  createdAt: run.createdAt.toISOString(),
  updatedAt: run.updatedAt.toISOString(),
  startedAt: run.startedAt?.toISOString() ?? null,
  completedAt: run.completedAt?.toISOString() ?? null,
});
