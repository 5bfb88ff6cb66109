import * as t from "io-ts";
import { Id, NullableTimestamp, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { installSnippet } from "./install-snippet.js";
import { customerEventsPath, isUnrestricted, type WebTrackingKey } from "./model.js";

/** Said of a key any site may use (compat-reference §20). */
export const UNRESTRICTED_WARNING = "This key is unrestricted: any website can send events with it. Set allowedOrigins to the sites that use it.";

/** The web tracking key record (spec, Web tracking key; compat-reference §20 adds `warning`). */
export const WebTrackingKeyView = viewWithOptional(
  {
    id: Id,
    name: t.string,
    publicKey: t.string,
    allowedOrigins: t.readonlyArray(t.string),
    isActive: t.boolean,
    unrestricted: t.boolean,
    lastUsedAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    installSnippet: t.string,
    endpoint: t.string,
  },
  { warning: t.string },
  "WebTrackingKey",
);
export type WebTrackingKeyView = t.TypeOf<typeof WebTrackingKeyView>;

export const toWebTrackingKeyView = (key: WebTrackingKey, baseUrl: string): WebTrackingKeyView => ({
  id: key.id,
  name: key.name,
  publicKey: key.publicKey,
  allowedOrigins: key.allowedOrigins,
  isActive: key.isActive,
  unrestricted: isUnrestricted(key),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  createdAt: key.createdAt.toISOString(),
  updatedAt: key.updatedAt.toISOString(),
  installSnippet: installSnippet(baseUrl, key.publicKey, key.companyId),
  endpoint: `${baseUrl}${customerEventsPath(key.companyId)}`,
  ...(isUnrestricted(key) ? { warning: UNRESTRICTED_WARNING } : {}),
});

/** What minting an identity token answers (compat-reference §20). */
export const WebIdentityView = view(
  {
    identityToken: t.string,
    email: t.string,
    keyId: Id,
    publicKey: t.string,
    subscriberId: Id,
    expiresAt: Timestamp,
  },
  "WebTrackingIdentity",
);
export type WebIdentityView = t.TypeOf<typeof WebIdentityView>;
