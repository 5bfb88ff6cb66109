import { map } from "fp-ts/lib/Either.js";
import type { BucketWriter } from "../ports/bucket-writer.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateDataExportCommand } from "./commands.js";
import { writeConnectionTest } from "./connection-test.js";
import { bucketCredentials, sealCredentials, type Credentials } from "./credentials.js";
import { barMarketer } from "./errors.js";
import { newRun } from "./export-run.js";
import { checkBucket, checkCredentials, checkDatasets, checkEndpoint, checkName, checkRegion, checkStartFrom } from "./input-rules.js";
import { DEFAULT_FREQUENCY, newExport } from "./model.js";
import { normalisePathPrefix } from "./path-prefix.js";
import type { DataExportRepository, PrivateKeyReader } from "./ports.js";
import { runJob } from "./run-job.js";
import { checkServiceAccountKey, type CheckedServiceAccountKey } from "./service-account-key.js";
import { toDataExportView, type DataExportView } from "./view.js";

/**
 * POST /data-exports: checks every rule (a service account key included), writes the connection test file with the given
 * credentials before anything is saved (nothing is saved when it fails: `connection_failed`),
 * then saves the export `queued` with its first run and starts that run at once.
 */
export class CreateDataExport {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly buckets: BucketWriter,
    private readonly box: SecretBox,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** ALLOW_PRIVATE_DESTINATIONS: loopback and plain-http endpoints (local testing only). */
    private readonly allowPrivateDestinations: boolean,
    private readonly privateKeys: PrivateKeyReader,
  ) {}

  execute = async (actor: Actor, command: CreateDataExportCommand): Promise<Result<DataExportView>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const now = this.clock.now();
    const { provider } = command;

    const name = checkName(command.name);
    if (name._tag === "Left") return name;
    const bucket = checkBucket(provider, command.bucket);
    if (bucket._tag === "Left") return bucket;
    const endpoint = checkEndpoint(provider, command.endpoint, this.allowPrivateDestinations);
    if (endpoint._tag === "Left") return endpoint;
    const region = checkRegion(provider, command.region, endpoint.right);
    if (region._tag === "Left") return region;
    const pathPrefix = normalisePathPrefix(command.pathPrefix);
    if (pathPrefix._tag === "Left") return pathPrefix;
    const credentials: Result<Credentials> =
      "serviceAccountKey" in command
        ? map((checked: CheckedServiceAccountKey): Credentials => ({ type: "service_account", ...checked }))(
            checkServiceAccountKey(command.serviceAccountKey, this.privateKeys),
          )
        : checkCredentials(command.accessKeyId, command.secretAccessKey);
    if (credentials._tag === "Left") return credentials;
    const datasets = checkDatasets(command.datasets);
    if (datasets._tag === "Left") return datasets;
    const startFrom = checkStartFrom(command.startFrom, now);
    if (startFrom._tag === "Left") return startFrom;

    const destination = { provider, bucket: bucket.right, region: region.right, endpoint: endpoint.right };
    const tested = await writeConnectionTest(this.buckets, { ...destination, ...bucketCredentials(credentials.right) }, pathPrefix.right, now);
    if (tested._tag === "Left") return tested;

    const id = this.ids.next("dex");
    const dataExport = newExport(
      {
        id,
        companyId: actor.companyId,
        name: name.right,
        destination: {
          ...destination,
          pathPrefix: pathPrefix.right,
          ...sealCredentials(this.box, id, credentials.right),
        },
        datasets: datasets.right,
        frequency: command.frequency ?? DEFAULT_FREQUENCY,
        startFrom: startFrom.right,
      },
      now,
    );
    const run = newRun(this.ids.next("dxr"), actor.companyId, id, "created", now);
    await this.exports.create(dataExport, run);
    await this.jobs.enqueue(runJob(run));
    return ok(toDataExportView(dataExport));
  };
}
