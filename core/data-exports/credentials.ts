import type { ServiceAccountKey } from "../ports/bucket-writer.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Destination } from "./model.js";
import { sealBucketSecret } from "./sealed-secret.js";

/** Credentials as checked, in plain text until sealed: HMAC keys, or a service account's key (GCS). */
export type Credentials =
  | { readonly type: "hmac"; readonly accessKeyId: string; readonly secretAccessKey: string }
  | { readonly type: "service_account"; readonly key: ServiceAccountKey; readonly fingerprint: string };

/** The credential fields of a BucketDestination, for a connection test before anything is saved. */
export const bucketCredentials = (credentials: Credentials) =>
  credentials.type === "hmac"
    ? { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey }
    : { accessKeyId: credentials.key.clientEmail, secretAccessKey: "", serviceAccountKey: credentials.key };

export type SealedCredentials = Pick<Destination, "credentialType" | "accessKeyId" | "secretSealed" | "keyFingerprint">;

/** The credential fields of an export's destination: the secret part sealed, bound to the export. */
export function sealCredentials(box: SecretBox, dataExportId: string, credentials: Credentials): SealedCredentials {
  if (credentials.type === "hmac") {
    return {
      credentialType: "hmac",
      accessKeyId: credentials.accessKeyId,
      secretSealed: sealBucketSecret(box, dataExportId, credentials.secretAccessKey),
      keyFingerprint: null,
    };
  }
  return {
    credentialType: "service_account",
    accessKeyId: credentials.key.clientEmail,
    secretSealed: sealBucketSecret(box, dataExportId, JSON.stringify(credentials.key)),
    keyFingerprint: credentials.fingerprint,
  };
}
