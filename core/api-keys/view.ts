import { effectiveScopes, summarisePermissions, type PermissionsSummary } from "../access/permissions.js";
import type { ApiKeyRecord } from "./model.js";

/** The API key resource as every host shows it: metadata only, never the key or its hash. */
export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly type: "company";
  readonly scopes: string[];
  readonly permissions: PermissionsSummary;
  readonly deviceName: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly isCurrent: boolean;
}

export function toApiKeyView({ key, member }: ApiKeyRecord, currentKeyId: string | null): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    type: "company",
    scopes: effectiveScopes(key.selectedScopes, member.role),
    permissions: summarisePermissions(key.preset, key.selectedScopes, member.role),
    deviceName: key.deviceName,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
    updatedAt: key.updatedAt.toISOString(),
    isCurrent: key.id === currentKeyId,
  };
}
