import type { SecretBox } from "../ports/secret-box.js";

/**
 * The bucket's secret access key, sealed for one export. The SecretBox port takes no additional
 * data, so the export's ID is sealed with the secret and checked on opening: a sealed value
 * copied into another export's row does not open there.
 */
export const sealBucketSecret = (box: SecretBox, dataExportId: string, secret: string): string => box.seal(JSON.stringify({ dataExportId, secret }));

export function openBucketSecret(box: SecretBox, dataExportId: string, sealed: string): string {
  const opened: unknown = JSON.parse(box.open(sealed));
  const { dataExportId: boundTo, secret } = (opened ?? {}) as Record<string, unknown>;
  if (boundTo !== dataExportId || typeof secret !== "string") throw new Error(`the sealed bucket secret does not belong to data export ${dataExportId}`);
  return secret;
}
