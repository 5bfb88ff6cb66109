import { Storage } from "@google-cloud/storage";
import { ObjectReadError, type RemoteObject } from "../../core/ports/object-source.js";
import { statusOf } from "./gcs-write-errors.js";

/**
 * A GCS object read with Google's application default credentials (GOOGLE_APPLICATION_CREDENTIALS,
 * `gcloud auth application-default login`, or the machine's service account on Google Cloud).
 */
export async function openGcsObject(bucket: string, key: string): Promise<RemoteObject> {
  const handle = new Storage({ retryOptions: { autoRetry: true, maxRetries: 3, totalTimeout: 120 } }).bucket(bucket);
  const where = `gs://${bucket}/${key}`;
  let size: number | null;
  let generation: number | undefined;
  try {
    const [metadata] = await handle.file(key).getMetadata();
    size = metadata.size === undefined ? null : Number(metadata.size);
    generation = metadata.generation === undefined ? undefined : Number(metadata.generation);
  } catch (error) {
    throw new ObjectReadError(`${where}: ${reasonOf(error)}`, { cause: error });
  }
  return {
    size,
    async *read() {
      try {
        // The generation found first: a file replaced meanwhile is read whole as it was.
        const file = handle.file(key, generation === undefined ? {} : { generation });
        for await (const chunk of file.createReadStream({ validation: false }) as AsyncIterable<Uint8Array>) yield chunk;
      } catch (error) {
        throw new ObjectReadError(`${where}: ${reasonOf(error)}`, { cause: error });
      }
    },
  };
}

function reasonOf(error: unknown): string {
  const status = statusOf(error);
  if (status === 404) return "no such object (or no such bucket)";
  if (status === 403) return "access denied: the application default credentials may not read it (storage.objects.get)";
  if (status === 401) return "the application default credentials were refused";
  const message = error instanceof Error ? error.message : String(error);
  if (/default credentials/i.test(message))
    return "no Google application default credentials found (set GOOGLE_APPLICATION_CREDENTIALS, or run gcloud auth application-default login)";
  return message.split("\n")[0]!;
}
