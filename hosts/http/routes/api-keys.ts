import { map } from "fp-ts/lib/Either.js";
import { CreateApiKeyCommand, UpdateApiKeyCommand } from "../../../core/api-keys/commands.js";
import { CreateApiKey } from "../../../core/api-keys/create-api-key.js";
import { ListApiKeys } from "../../../core/api-keys/list-api-keys.js";
import { RevokeApiKey } from "../../../core/api-keys/revoke-api-key.js";
import { UpdateApiKey } from "../../../core/api-keys/update-api-key.js";
import { decode } from "../../../core/shared/codecs.js";
import { isLeft } from "../../../core/shared/result.js";
import { BaseUrl } from "../../container.js";
import type { Route } from "../route.js";

/** The variable Sequenzy's official clients read their key from. */
const CLIENT_KEY_VARIABLE = "SEQUENZY_API_KEY";

export const apiKeyRoutes: readonly Route[] = [
  {
    method: "get",
    path: "/api-keys",
    scopes: ["api_keys:read"],
    summary: "List the company's API keys (metadata only)",
    handle: async ({ actor, container }) => map((apiKeys) => ({ apiKeys }))(await container.get(ListApiKeys).execute(actor)),
  },
  {
    method: "post",
    path: "/api-keys",
    scopes: ["api_keys:manage"],
    summary: "Create an API key; the plain key is returned once",
    internalErrorMessage: "Failed to create API key",
    handle: async ({ req, actor, container }) => {
      const input = decode(CreateApiKeyCommand, req.body ?? {});
      if (isLeft(input)) return input;
      const baseUrl = container.get<string>(BaseUrl);
      return map((apiKey: { key: string }) => ({
        apiKey,
        message: "API key created. Copy it now: it will not be shown again.",
        instructions: {
          envVariable: CLIENT_KEY_VARIABLE,
          example: `export ${CLIENT_KEY_VARIABLE}=${apiKey.key}`,
          note: `Send it as "Authorization: Bearer <key>" (or "x-api-key") to ${baseUrl}/api/v1. Official clients also need SEQUENZY_API_URL=${baseUrl}.`,
        },
      }))(await container.get(CreateApiKey).execute(actor, input.right));
    },
  },
  {
    method: "patch",
    path: "/api-keys/:apiKeyId",
    scopes: ["api_keys:manage"],
    summary: "Rename a key or replace its scopes",
    handle: async ({ req, actor, container }) => {
      const input = decode(UpdateApiKeyCommand, req.body ?? {});
      if (isLeft(input)) return input;
      const keyId = String(req.params.apiKeyId);
      return map((apiKey) => ({ apiKey }))(await container.get(UpdateApiKey).execute(actor, keyId, input.right));
    },
  },
  {
    method: "delete",
    path: "/api-keys/:apiKeyId",
    scopes: ["api_keys:manage"],
    summary: "Revoke an API key permanently",
    handle: async ({ req, actor, container }) =>
      map((apiKey) => ({ apiKey, message: "API key revoked. It can no longer be used." }))(
        await container.get(RevokeApiKey).execute(actor, String(req.params.apiKeyId)),
      ),
  },
];
