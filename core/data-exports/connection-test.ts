import { BucketWriteError, type BucketDestination, type BucketWriter, type ServiceAccountKey } from "../ports/bucket-writer.js";
import type { SecretBox } from "../ports/secret-box.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { CONNECTION_FAILED } from "./errors.js";
import { connectionTestKey } from "./layout.js";
import type { DataExport } from "./model.js";
import { openBucketSecret } from "./sealed-secret.js";

export interface ConnectionTest {
  /** The object written. */
  readonly key: string;
  readonly testedAt: string;
}

/** The bucket an export writes to, with its secret (or service account key) opened for the call. */
export const destinationOf = (dataExport: DataExport, box: SecretBox): BucketDestination => {
  const { provider, bucket, region, endpoint, accessKeyId, secretSealed, credentialType } = dataExport.destination;
  const secret = openBucketSecret(box, dataExport.id, secretSealed);
  if (credentialType === "service_account") {
    return { provider, bucket, region, endpoint, accessKeyId, secretAccessKey: "", serviceAccountKey: JSON.parse(secret) as ServiceAccountKey };
  }
  return { provider, bucket, region, endpoint, accessKeyId, secretAccessKey: secret };
};

/**
 * Writes `<pathPrefix>/_service/connection-test.json`: proof that the credentials may write
 * where the export will write. A refusal is the spec's `connection_failed` (400), with the
 * destination's reason; anything else is a bug and is thrown.
 */
export async function writeConnectionTest(
  buckets: BucketWriter,
  destination: BucketDestination,
  pathPrefix: string,
  now: Date,
): Promise<Result<ConnectionTest>> {
  const key = connectionTestKey(pathPrefix);
  const testedAt = now.toISOString();
  const body = JSON.stringify({ service: "lifecycle-email", purpose: "data export connection test; safe to delete", testedAt });
  const bucket = buckets.open(destination);
  try {
    await bucket.put(key, body, { contentType: "application/json" });
    return ok({ key, testedAt });
  } catch (error) {
    if (!(error instanceof BucketWriteError)) throw error;
    return fail(badRequest(`Could not write the test file ${key} to bucket ${destination.bucket}: ${error.message}`, { code: CONNECTION_FAILED }));
  } finally {
    bucket.close();
  }
}
