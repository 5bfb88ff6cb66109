import * as t from "io-ts";
import { effectiveScopes, summarisePermissions } from "../access/permissions.js";
import { PRESET_NAMES } from "../access/presets.js";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import type { ApiKeyRecord } from "./model.js";

/** What a key may do, in words and counts (its scopes are listed beside it). */
export const ApiKeyPermissionsView = view(
  {
    preset: oneOf(PRESET_NAMES, "Preset"),
    fullAccess: t.boolean,
    selectedScopeCount: t.number,
    currentScopeCount: t.number,
    description: t.string,
  },
  "ApiKeyPermissions",
);

const apiKeyFields = {
  id: Id,
  name: t.string,
  prefix: t.string,
  type: t.literal("company"),
  scopes: t.array(t.string),
  permissions: ApiKeyPermissionsView,
  deviceName: NullableString,
  lastUsedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  isCurrent: t.boolean,
};

/** The API key resource as every host shows it: metadata only, never the key or its hash. */
export const ApiKeyView = view(apiKeyFields, "ApiKey");
export type ApiKeyView = t.TypeOf<typeof ApiKeyView>;

/** A key just created: the only time its plain value is shown. */
export const CreatedApiKeyView = view({ ...apiKeyFields, key: t.string }, "CreatedApiKey");
export type CreatedApiKeyView = t.TypeOf<typeof CreatedApiKeyView>;

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
