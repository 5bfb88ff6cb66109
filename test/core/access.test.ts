import test from "ava";
import { effectiveScopes, missingScopeMessage, summarisePermissions } from "../../core/access/permissions.js";
import { PRESET_NAMES, presetScopes } from "../../core/access/presets.js";
import { canManageTeam, roleCeiling } from "../../core/access/role-ceilings.js";
import { ALL_SCOPES, SCOPE_CATALOG } from "../../core/access/scopes.js";
import { ensureGrantable, resolveSelection } from "../../core/api-keys/key-selection.js";

/** Every scope the spec and the compatibility reference name, spelled exactly. */
const NAMED_SCOPES = [
  "api_keys:manage",
  "data_exports:read",
  "data_exports:write",
  "subscribers:read",
  "subscribers:write",
  "analytics:read",
  "integrations:manage",
  "transactional:delete",
  "warehouse:read",
  "account:read",
  "widgets:write",
  "companies:manage",
  "company_profile:manage",
  "subscribers:tag",
  "tags:write",
  "lists:write",
  "segments:write",
  "segments:delete",
  "automations:trigger",
  "sequences:read",
  "sequences:write",
  "campaigns:write",
  "templates:write",
  "emails:write",
  "transactional:send",
  "transactional:write",
  "ab_tests:read",
  "ab_tests:write",
];

test("the catalog holds every named scope, each once, as resource:action with a description", (t) => {
  t.is(ALL_SCOPES.length, 63);
  t.is(new Set(ALL_SCOPES).size, ALL_SCOPES.length);
  for (const scope of NAMED_SCOPES) t.true(ALL_SCOPES.includes(scope as never), scope);
  for (const { scope, description } of SCOPE_CATALOG) {
    t.regex(scope, /^[a-z_]+:[a-z_]+$/);
    t.true(description.length > 10, scope);
  }
});

test("role ceilings: marketers lack data exports, team management and key management; admins and owners have all", (t) => {
  const marketer = roleCeiling("marketer");
  for (const scope of ["data_exports:read", "data_exports:write", "team:manage", "api_keys:manage"] as const) t.false(marketer.has(scope), scope);
  t.is(marketer.size, 59);
  t.true(marketer.has("campaigns:send"));
  t.is(roleCeiling("admin").size, 63);
  t.is(roleCeiling("owner").size, 63);
  t.true(canManageTeam("owner"));
  t.true(canManageTeam("admin"));
  t.false(canManageTeam("marketer"));
});

test("presets resolve to catalog scopes; read_only reads everything and writes nothing", (t) => {
  for (const preset of PRESET_NAMES) {
    for (const scope of presetScopes(preset) ?? []) t.true(ALL_SCOPES.includes(scope), `${preset}: ${scope}`);
  }
  const readOnly = presetScopes("read_only") ?? [];
  t.true(readOnly.length > 20);
  t.true(readOnly.every((scope) => scope.endsWith(":read")));
  t.is(presetScopes("full_access"), null);
  t.deepEqual(presetScopes("transactional_sender"), ["account:read", "transactional:read", "transactional:send", "email_sends:read"]);
});

test("a key's scopes are its selection cut to its member's role", (t) => {
  t.deepEqual(effectiveScopes(["data_exports:read", "tags:read"], "marketer"), ["tags:read"]);
  t.is(effectiveScopes(null, "marketer").length, 59);
  t.deepEqual(summarisePermissions("full_access", null, "marketer"), {
    preset: "full_access",
    fullAccess: true,
    selectedScopeCount: 63,
    currentScopeCount: 59,
    description: "Full access: every permission the key's team role allows",
  });
  t.is(missingScopeMessage(["a:b" as never, "c:d" as never]), "API key is missing required scope: a:b, c:d");
});

test("selection: scopes win over a preset, nothing means full access, custom needs scopes", (t) => {
  t.deepEqual(resolveSelection({}), { _tag: "Right", right: { preset: "full_access", selectedScopes: null } });
  t.deepEqual(resolveSelection({ preset: "read_only", scopes: ["tags:write", "account:read"] }), {
    _tag: "Right",
    right: { preset: "custom", selectedScopes: ["account:read", "tags:write"] },
  });
  const custom = resolveSelection({ preset: "custom" });
  t.is(custom._tag, "Left");
});

test("granting: everything the new key would hold must already be held", (t) => {
  const held = new Set(["account:read", "tags:read"] as const);
  const denied = ensureGrantable({ preset: "custom", selectedScopes: ["account:read", "tags:write", "lists:write"] }, "admin", held);
  t.deepEqual(denied, { _tag: "Left", left: { _tag: "Forbidden", message: "API key is missing required scope: tags:write, lists:write" } });
  // A marketer's full-access key only needs what a marketer can hold.
  const marketerFull = ensureGrantable({ preset: "full_access", selectedScopes: null }, "marketer", roleCeiling("marketer"));
  t.is(marketerFull._tag, "Right");
});
