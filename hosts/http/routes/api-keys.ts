import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateApiKeyCommand, UpdateApiKeyCommand } from "../../../core/api-keys/commands.js";
import { CreateApiKey } from "../../../core/api-keys/create-api-key.js";
import { ListApiKeys } from "../../../core/api-keys/list-api-keys.js";
import { RevokeApiKey } from "../../../core/api-keys/revoke-api-key.js";
import { UpdateApiKey } from "../../../core/api-keys/update-api-key.js";
import { ApiKeyView, CreatedApiKeyView } from "../../../core/api-keys/view.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { view } from "../../../core/shared/view-fields.js";
import { BaseUrl } from "../../tokens.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** The variable Sequenzy's official clients read their key from. */
const CLIENT_KEY_VARIABLE = "SEQUENZY_API_KEY";

const KeyPath = t.type({ apiKeyId: TrimmedNonEmpty });

export const apiKeyRoutes = routeModule(
  { listApiKeys: ListApiKeys, createApiKey: CreateApiKey, updateApiKey: UpdateApiKey, revokeApiKey: RevokeApiKey, baseUrl: BaseUrl },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/api-keys",
      tag: "API keys",
      scopes: ["api_keys:read"],
      summary: "List the company's API keys (metadata only)",
      response: view({ apiKeys: t.array(ApiKeyView) }),
      handle: async ({ actor }) => under("apiKeys")(await uses.listApiKeys.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/api-keys",
      tag: "API keys",
      scopes: ["api_keys:manage"],
      summary: "Create an API key; the plain key is returned once",
      body: CreateApiKeyCommand,
      response: view({
        apiKey: CreatedApiKeyView,
        message: t.string,
        instructions: view({ envVariable: t.string, example: t.string, note: t.string }),
      }),
      errors: [403, 422],
      internalErrorMessage: "Failed to create API key",
      handle: async ({ input, actor }) =>
        map((apiKey: CreatedApiKeyView) => ({
          apiKey,
          message: "API key created. Copy it now: it will not be shown again.",
          instructions: {
            envVariable: CLIENT_KEY_VARIABLE,
            example: `export ${CLIENT_KEY_VARIABLE}=${apiKey.key}`,
            note: `Send it as "Authorization: Bearer <key>" (or "x-api-key") to ${uses.baseUrl}/api/v1. Official clients also need SEQUENZY_API_URL=${uses.baseUrl}.`,
          },
        }))(await uses.createApiKey.execute(actor, input.body)),
    }),
    defineRoute({
      method: "patch",
      path: "/api-keys/:apiKeyId",
      tag: "API keys",
      scopes: ["api_keys:manage"],
      summary: "Rename a key or replace its scopes",
      params: KeyPath,
      body: UpdateApiKeyCommand,
      response: view({ apiKey: ApiKeyView }),
      errors: [400, 403, 404, 422],
      handle: async ({ input, actor }) => under("apiKey")(await uses.updateApiKey.execute(actor, input.params.apiKeyId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/api-keys/:apiKeyId",
      tag: "API keys",
      scopes: ["api_keys:manage"],
      summary: "Revoke an API key permanently",
      params: KeyPath,
      response: view({ apiKey: ApiKeyView, message: t.string }),
      errors: [403, 404],
      handle: async ({ input, actor }) =>
        map((apiKey: ApiKeyView) => ({ apiKey, message: "API key revoked. It can no longer be used." }))(
          await uses.revokeApiKey.execute(actor, input.params.apiKeyId),
        ),
    }),
  ],
);
