import { GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { ObjectReadError, type RemoteObject } from "../../core/ports/object-source.js";

interface S3ErrorLike {
  readonly name?: string;
  readonly message?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/**
 * An S3 object read with AWS's standard environment and default credential chain (AWS_REGION,
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, instance roles...). With
 * AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL) set, an S3-compatible service is addressed path-style.
 */
export async function openS3Object(bucket: string, key: string, env: NodeJS.ProcessEnv = process.env): Promise<RemoteObject> {
  const endpoint = env["AWS_ENDPOINT_URL_S3"] ?? env["AWS_ENDPOINT_URL"];
  const client = new S3Client({
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
  });
  const where = `s3://${bucket}/${key}`;
  let size: number | null;
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    size = head.ContentLength ?? null;
  } catch (error) {
    client.destroy();
    throw new ObjectReadError(`${where}: ${reasonOf(error)}`, { cause: error });
  }
  return {
    size,
    async *read() {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        for await (const chunk of object.Body as AsyncIterable<Uint8Array>) yield chunk;
      } catch (error) {
        throw new ObjectReadError(`${where}: ${reasonOf(error)}`, { cause: error });
      } finally {
        client.destroy();
      }
    },
  };
}

function reasonOf(error: unknown): string {
  const e = (error ?? {}) as S3ErrorLike;
  const status = e.$metadata?.httpStatusCode;
  if (e.name === "NoSuchKey" || e.name === "NotFound" || status === 404) return "no such object (or no such bucket)";
  if (e.name === "NoSuchBucket") return "no such bucket";
  if (e.name === "AccessDenied" || e.name === "Forbidden" || status === 403) return "access denied: the AWS credentials in the environment may not read it";
  if (e.name === "InvalidAccessKeyId") return "the AWS access key ID is not known";
  if (e.name === "SignatureDoesNotMatch") return "the AWS secret access key does not match the access key ID";
  if (e.name === "CredentialsProviderError") return "no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile)";
  if (/region is missing/i.test(e.message ?? "")) return "no AWS region set (set AWS_REGION)";
  return (e.message ?? String(error)).split("\n")[0]!;
}
