import type { SecretBox } from "../ports/secret-box.js";
import type { IntegrationCredentials } from "./model.js";

/**
 * An integration's credentials, sealed for that integration. The SecretBox takes no additional
 * data, so the integration's ID is sealed with them and checked on opening: a sealed value copied
 * into another integration's row does not open there.
 */
export const sealCredentials = (box: SecretBox, integrationId: string, credentials: IntegrationCredentials): string =>
  box.seal(JSON.stringify({ integrationId, credentials }));

export function openCredentials(box: SecretBox, integrationId: string, sealed: string): IntegrationCredentials {
  const opened = JSON.parse(box.open(sealed)) as { integrationId?: unknown; credentials?: IntegrationCredentials };
  if (opened.integrationId !== integrationId || typeof opened.credentials?.webhookSecret !== "string")
    throw new Error(`the sealed credentials do not belong to integration ${integrationId}`);
  return opened.credentials;
}
