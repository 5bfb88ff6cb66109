import type { BucketWriter } from "../ports/bucket-writer.js";
import type { Clock } from "../ports/clock.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { fail, type Result } from "../shared/result.js";
import { destinationOf, writeConnectionTest, type ConnectionTest } from "./connection-test.js";
import { barMarketer, dataExportNotFound } from "./errors.js";
import type { DataExportRepository } from "./ports.js";

/** POST /data-exports/{id}/test: writes the connection test file again with the stored credentials. */
export class TestDataExportConnection {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly buckets: BucketWriter,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, id: string): Promise<Result<ConnectionTest>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const found = await this.exports.find(actor.companyId, id);
    if (!found) return fail(dataExportNotFound());
    return writeConnectionTest(this.buckets, destinationOf(found, this.box), found.destination.pathPrefix, this.clock.now());
  };
}
