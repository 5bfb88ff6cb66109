import type { Bucket, BucketDestination, BucketWriter } from "../../core/ports/bucket-writer.js";

/** Opens a destination with the writer its credentials need: a service account key (GCS JSON API) or HMAC keys (S3 API). */
export class BucketWriterByCredentials implements BucketWriter {
  constructor(
    private readonly hmac: BucketWriter,
    private readonly serviceAccount: BucketWriter,
  ) {}

  open(destination: BucketDestination): Bucket {
    return destination.serviceAccountKey ? this.serviceAccount.open(destination) : this.hmac.open(destination);
  }
}
