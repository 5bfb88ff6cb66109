import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { view } from "../../../core/shared/view-fields.js";
import {
  CreateWebTrackingKeyCommand,
  DEFAULT_IDENTITY_TTL_HOURS,
  MAX_IDENTITY_TTL_HOURS,
  MintWebIdentityCommand,
  UpdateWebTrackingKeyCommand,
  WebTrackingKeyPath,
} from "../../../core/web-tracking/commands.js";
import { CreateWebTrackingKey } from "../../../core/web-tracking/create-web-tracking-key.js";
import { DeleteWebTrackingKey } from "../../../core/web-tracking/delete-web-tracking-key.js";
import { GetWebTrackingKey } from "../../../core/web-tracking/get-web-tracking-key.js";
import { ListWebTrackingKeys } from "../../../core/web-tracking/list-web-tracking-keys.js";
import { MintWebIdentity } from "../../../core/web-tracking/mint-web-identity.js";
import { MAX_ALLOWED_ORIGINS } from "../../../core/web-tracking/model.js";
import { UpdateWebTrackingKey } from "../../../core/web-tracking/update-web-tracking-key.js";
import { WebIdentityView, WebTrackingKeyView } from "../../../core/web-tracking/view.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const ORIGIN_RULES = `allowedOrigins (at most ${MAX_ALLOWED_ORIGINS}): a bare domain is read as https; a leading *. matches subdomains at any depth but not the apex; origins are normalized (lower case, no path or trailing slash, no default port); one invalid entry refuses the whole request (400) and nothing is saved; none makes the key unrestricted.`;

/** Web tracking keys and identity tokens (spec, Web tracking keys; compat-reference §20). */
export const webTrackingRoutes = routeModule(
  {
    listKeys: ListWebTrackingKeys,
    getKey: GetWebTrackingKey,
    createKey: CreateWebTrackingKey,
    updateKey: UpdateWebTrackingKey,
    deleteKey: DeleteWebTrackingKey,
    mintIdentity: MintWebIdentity,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/web-tracking-keys",
      tag: "Web tracking",
      scopes: ["integrations:read"],
      summary: "List the company's web tracking keys, newest first; an unrestricted key carries a warning",
      response: view({ keys: t.readonlyArray(WebTrackingKeyView) }),
      handle: async ({ actor }) => under("keys")(await uses.listKeys.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/web-tracking-keys",
      tag: "Web tracking",
      scopes: ["integrations:manage"],
      summary: `Create a publishable key for the browser tracking script, with its installSnippet and endpoint. ${ORIGIN_RULES}`,
      body: CreateWebTrackingKeyCommand,
      response: view({ key: WebTrackingKeyView, message: t.string }),
      errors: [400, 403, 422],
      handle: async ({ input, actor }) =>
        map((key: WebTrackingKeyView) => ({ key, message: "Web tracking key created. Paste installSnippet into every page of your site." }))(
          await uses.createKey.execute(actor, input.body),
        ),
    }),
    defineRoute({
      method: "get",
      path: "/web-tracking-keys/:keyId",
      tag: "Web tracking",
      scopes: ["integrations:read"],
      summary: "One web tracking key; 404 'Web tracking key not found'",
      params: WebTrackingKeyPath,
      response: view({ key: WebTrackingKeyView }),
      errors: [404],
      handle: async ({ input, actor }) => under("key")(await uses.getKey.execute(actor, input.params.keyId)),
    }),
    defineRoute({
      method: "patch",
      path: "/web-tracking-keys/:keyId",
      tag: "Web tracking",
      scopes: ["integrations:manage"],
      summary: `Change at least one of name, allowedOrigins (replaced; [] or null: unrestricted), isActive (an inactive key's events are refused). ${ORIGIN_RULES}`,
      params: WebTrackingKeyPath,
      body: UpdateWebTrackingKeyCommand,
      response: view({ key: WebTrackingKeyView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("key")(await uses.updateKey.execute(actor, input.params.keyId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/web-tracking-keys/:keyId",
      tag: "Web tracking",
      scopes: ["integrations:manage"],
      summary: "Delete a web tracking key: pages carrying it and the identity tokens minted for it are refused from then on",
      params: WebTrackingKeyPath,
      response: view({ message: t.string }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteKey.execute(actor, input.params.keyId),
    }),
    defineRoute({
      method: "post",
      path: "/web-tracking-identities",
      tag: "Web tracking",
      scopes: ["subscribers:write"],
      summary: `Mint an identity token for a signed-in visitor, from your backend: pass it to identify(email, identityToken) in the page. Bound to the key (publicKey or keyId) and the email, expires after ttlHours (default ${DEFAULT_IDENTITY_TTL_HOURS}, at most ${MAX_IDENTITY_TTL_HOURS}); the contact is created on first mint`,
      body: MintWebIdentityCommand,
      response: WebIdentityView,
      errors: [400, 403, 404, 422],
      handle: async ({ input, actor }) => uses.mintIdentity.execute(actor, input.body),
    }),
  ],
);
