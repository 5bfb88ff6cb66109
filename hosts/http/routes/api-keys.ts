import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { PRESET_NAMES } from "../../../core/access/presets.js";
import { CreateApiKeyCommand, UpdateApiKeyCommand } from "../../../core/api-keys/commands.js";
import { CreateApiKey } from "../../../core/api-keys/create-api-key.js";
import { ListApiKeys } from "../../../core/api-keys/list-api-keys.js";
import { RevokeApiKey } from "../../../core/api-keys/revoke-api-key.js";
import { UpdateApiKey } from "../../../core/api-keys/update-api-key.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { BaseUrl } from "../../tokens.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

/** The variable Sequenzy's official clients read their key from. */
const CLIENT_KEY_VARIABLE = "SEQUENZY_API_KEY";

const ApiKeyResource = t.type({
  id: Id,
  name: t.string,
  prefix: t.string,
  type: t.literal("company"),
  scopes: t.array(t.string),
  permissions: t.type({
    preset: t.keyof(Object.fromEntries(PRESET_NAMES.map((name) => [name, null])) as Record<(typeof PRESET_NAMES)[number], null>),
    fullAccess: t.boolean,
    selectedScopeCount: t.number,
    currentScopeCount: t.number,
    description: t.string,
  }),
  deviceName: NullableString,
  lastUsedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  isCurrent: t.boolean,
});

const KeyPath = t.type({ apiKeyId: TrimmedNonEmpty });

export const apiKeyRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/api-keys",
    tag: "API keys",
    scopes: ["api_keys:read"],
    summary: "List the company's API keys (metadata only)",
    response: t.type({ apiKeys: t.array(ApiKeyResource) }),
    handle: async ({ actor, container }) => map((apiKeys) => ({ apiKeys }))(await container.get(ListApiKeys).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/api-keys",
    tag: "API keys",
    scopes: ["api_keys:manage"],
    summary: "Create an API key; the plain key is returned once",
    body: CreateApiKeyCommand,
    response: t.type({
      apiKey: t.intersection([ApiKeyResource, t.type({ key: t.string })]),
      message: t.string,
      instructions: t.type({ envVariable: t.string, example: t.string, note: t.string }),
    }),
    errors: [403, 422],
    internalErrorMessage: "Failed to create API key",
    handle: async ({ input, actor, container }) => {
      const baseUrl = container.get<string>(BaseUrl);
      return map((apiKey: { key: string }) => ({
        apiKey,
        message: "API key created. Copy it now: it will not be shown again.",
        instructions: {
          envVariable: CLIENT_KEY_VARIABLE,
          example: `export ${CLIENT_KEY_VARIABLE}=${apiKey.key}`,
          note: `Send it as "Authorization: Bearer <key>" (or "x-api-key") to ${baseUrl}/api/v1. Official clients also need SEQUENZY_API_URL=${baseUrl}.`,
        },
      }))(await container.get(CreateApiKey).execute(actor, input.body));
    },
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/api-keys/:apiKeyId",
    tag: "API keys",
    scopes: ["api_keys:manage"],
    summary: "Rename a key or replace its scopes",
    params: KeyPath,
    body: UpdateApiKeyCommand,
    response: t.type({ apiKey: ApiKeyResource }),
    errors: [400, 403, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((apiKey) => ({ apiKey }))(await container.get(UpdateApiKey).execute(actor, input.params.apiKeyId, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/api-keys/:apiKeyId",
    tag: "API keys",
    scopes: ["api_keys:manage"],
    summary: "Revoke an API key permanently",
    params: KeyPath,
    response: t.type({ apiKey: ApiKeyResource, message: t.string }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) =>
      map((apiKey) => ({ apiKey, message: "API key revoked. It can no longer be used." }))(
        await container.get(RevokeApiKey).execute(actor, input.params.apiKeyId),
      ),
  }),
];
