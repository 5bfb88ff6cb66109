import type { DiscoveredResource, MigrationProvider, MigrationReport, MigrationRun, ResourceOptions, ResourceProgress, RunStatus } from "./model.js";

/** The run as the API shows it (spec resource "Migration run"); the source's credentials never appear. */
export interface MigrationRunView {
  readonly id: string;
  readonly provider: MigrationProvider;
  readonly status: RunStatus;
  readonly discovery: { readonly provider: MigrationProvider; readonly resources: readonly DiscoveredResource[] };
  readonly approvedPlan: {
    readonly resourceIds: readonly string[];
    readonly resourceOptions: Readonly<Record<string, ResourceOptions>>;
    readonly approvedAt: string | null;
  };
  readonly progress: {
    readonly batches: number;
    readonly resourcesDone: number;
    readonly resources: readonly ResourceProgress[];
  };
  readonly report: MigrationReport;
  readonly errors: ReadonlyArray<{ readonly resourceId: string | null; readonly message: string; readonly at: string }>;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
}

/** What start and cancel answer: `{id, status}`. */
export interface RunStatusView {
  readonly id: string;
  readonly status: RunStatus;
}

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
