import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import type { SubscriberImport } from "../subscriber-imports/model.js";
import type { WarehouseSyncRun } from "./model.js";
import { toRunView, type RunView } from "./view.js";

/** Runs as the API shows them, each with the imports it made. */
export async function describeRuns(imports: SubscriberImportRepository, companyId: string, runs: readonly WarehouseSyncRun[]): Promise<RunView[]> {
  const ids = [...new Set(runs.flatMap((run) => run.subscriberImportIds))];
  const found = (await Promise.all(ids.map((id) => imports.find(companyId, id)))).filter((i): i is SubscriberImport => i !== null);
  return runs.map((run) => toRunView(run, found));
}
