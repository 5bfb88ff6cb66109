import type { BucketWriter } from "../ports/bucket-writer.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { fail, must, ok, type Result } from "../shared/result.js";
import { FIXED_FIELDS, type UpdateDataExportCommand } from "./commands.js";
import { writeConnectionTest } from "./connection-test.js";
import { barMarketer, dataExportNotFound, invalidInput } from "./errors.js";
import type { ExportRun } from "./export-run.js";
import { bucketCredentials, sealCredentials, type Credentials, type SealedCredentials } from "./credentials.js";
import { checkCredentials, checkName } from "./input-rules.js";
import { FREQUENCY_MS, transition, type DataExport, type Frequency } from "./model.js";
import type { DataExportRepository, ExportState, ExportStep, PrivateKeyReader } from "./ports.js";
import { cancelQueuedRun, queueRun } from "./queue-run.js";
import { runJob } from "./run-job.js";
import { checkServiceAccountKey } from "./service-account-key.js";
import { toDataExportView, type DataExportView } from "./view.js";

interface Changes {
  readonly name?: string;
  readonly frequency?: Frequency;
  readonly isEnabled?: boolean;
  readonly credentials?: Credentials;
}

/**
 * PATCH /data-exports/{id}: rename, change the frequency, pause (`isEnabled: false`: a queued
 * run is cancelled, a running one finishes) or resume (a run starts at once), and rotate the
 * credentials (a gcs export may switch between HMAC keys and a service account key), which are tested by writing the connection test file first (nothing changes when
 * that fails). Where and what the export writes is fixed at creation.
 */
export class UpdateDataExport {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly buckets: BucketWriter,
    private readonly box: SecretBox,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly privateKeys: PrivateKeyReader,
  ) {}

  execute = async (actor: Actor, id: string, command: UpdateDataExportCommand): Promise<Result<DataExportView>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const changes = readChanges(command, this.privateKeys);
    if (changes._tag === "Left") return changes;

    const current = await this.exports.find(actor.companyId, id);
    if (!current) return fail(dataExportNotFound());
    const now = this.clock.now();
    const { credentials } = changes.right;
    if (credentials) {
      if (credentials.type === "service_account" && current.destination.provider !== "gcs") {
        return fail(invalidInput("serviceAccountKey is only accepted with provider gcs"));
      }
      const { provider, bucket, region, endpoint, pathPrefix } = current.destination;
      const tested = await writeConnectionTest(this.buckets, { provider, bucket, region, endpoint, ...bucketCredentials(credentials) }, pathPrefix, now);
      if (tested._tag === "Left") return tested;
    }
    const sealed = credentials ? sealCredentials(this.box, id, credentials) : null;
    const runId = this.ids.next("dxr");
    const outcome = await this.exports.change(actor.companyId, id, (state) => apply(state, changes.right, sealed, runId, now));
    if (!outcome) return fail(dataExportNotFound());
    if (outcome._tag === "Left") return outcome;
    if (outcome.right.queued) await this.jobs.enqueue(runJob(outcome.right.queued));
    return ok(toDataExportView(outcome.right.dataExport));
  };
}

function readChanges(command: UpdateDataExportCommand, privateKeys: PrivateKeyReader): Result<Changes> {
  const fixed = FIXED_FIELDS.filter((field) => command[field] !== undefined);
  if (fixed.length > 0) {
    return fail(invalidInput(`${fixed.join(", ")} cannot be changed after creation: create a new data export instead`));
  }
  const changes: { -readonly [K in keyof Changes]: Changes[K] } = {};
  if (command.name !== undefined) {
    const name = checkName(command.name);
    if (name._tag === "Left") return name;
    changes.name = name.right;
  }
  if (command.frequency !== undefined) changes.frequency = command.frequency;
  if (command.isEnabled !== undefined) changes.isEnabled = command.isEnabled;
  const hmacGiven = command.accessKeyId !== undefined || command.secretAccessKey !== undefined;
  if (command.serviceAccountKey !== undefined) {
    if (hmacGiven) return fail(invalidInput("give either accessKeyId with secretAccessKey, or serviceAccountKey, not both"));
    const checked = checkServiceAccountKey(command.serviceAccountKey, privateKeys);
    if (checked._tag === "Left") return checked;
    changes.credentials = { type: "service_account", ...checked.right };
  } else if (hmacGiven) {
    if (command.accessKeyId === undefined || command.secretAccessKey === undefined) {
      return fail(invalidInput("accessKeyId and secretAccessKey must be given together to rotate the credentials"));
    }
    const credentials = checkCredentials(command.accessKeyId, command.secretAccessKey);
    if (credentials._tag === "Left") return credentials;
    changes.credentials = credentials.right;
  }
  if (Object.keys(changes).length === 0) {
    return fail(invalidInput("Nothing to change: give name, frequency, isEnabled, accessKeyId with secretAccessKey, or serviceAccountKey"));
  }
  return ok(changes);
}

interface Applied {
  readonly dataExport: DataExport;
  /** The run queued on resume, whose job is enqueued after the save. */
  readonly queued: ExportRun | null;
}

function apply(state: ExportState, changes: Changes, sealed: SealedCredentials | null, runId: string, now: Date): ExportStep<Result<Applied>> {
  if (state.dataExport.deletedAt) return { value: fail(dataExportNotFound()) };
  let dataExport: DataExport = { ...state.dataExport, updatedAt: now };
  if (changes.name !== undefined) dataExport = { ...dataExport, name: changes.name };
  if (sealed !== null) dataExport = { ...dataExport, destination: { ...dataExport.destination, ...sealed } };
  if (changes.frequency !== undefined && changes.frequency !== dataExport.frequency) {
    dataExport = { ...dataExport, frequency: changes.frequency };
    // An idle export's next run follows the new interval; a failed one keeps its retry time.
    if (dataExport.isEnabled && dataExport.status === "idle") {
      dataExport = { ...dataExport, nextRunAt: new Date((dataExport.lastRunAt ?? now).getTime() + FREQUENCY_MS[changes.frequency]) };
    }
  }
  const runs: ExportRun[] = [];
  let queued: ExportRun | null = null;
  if (changes.isEnabled === false && dataExport.isEnabled) {
    const cancelled = cancelQueuedRun({ ...state, dataExport }, now);
    dataExport = must(transition(cancelled.dataExport, { type: "pause" }, now));
    runs.push(...cancelled.runs);
  } else if (changes.isEnabled === true && !dataExport.isEnabled) {
    dataExport = must(transition(dataExport, { type: "resume" }, now));
    const next = queueRun(state, runId, "resumed", now, dataExport);
    if (next) {
      dataExport = next.save.dataExport;
      queued = next.run;
      runs.push(next.run);
    }
  }
  return { save: { dataExport, runs }, value: ok({ dataExport, queued }) };
}
