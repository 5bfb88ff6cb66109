import { presetScopes, type PresetName } from "../access/presets.js";
import { ALL_SCOPES, type Scope } from "../access/scopes.js";
import { effectiveScopes, missingScopeMessage, missingScopes } from "../access/permissions.js";
import { forbidden, invalid } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Role } from "../tenancy/model.js";
import type { KeySelection } from "./model.js";

/** Turns a request's `preset`/`scopes` into a selection: scopes win (as `custom`), nothing means full access. */
export function resolveSelection(input: { preset?: PresetName | undefined; scopes?: readonly Scope[] | undefined }): Result<KeySelection> {
  if (input.scopes && input.scopes.length > 0) {
    const chosen = new Set(input.scopes);
    return ok({ preset: "custom", selectedScopes: ALL_SCOPES.filter((scope) => chosen.has(scope)) });
  }
  const preset = input.preset ?? "full_access";
  if (preset === "custom") {
    return fail(invalid("Invalid request: scopes are required with preset custom", [{ path: "scopes", message: "is required with preset custom" }]));
  }
  return ok({ preset, selectedScopes: presetScopes(preset) });
}

/**
 * A key can never receive a scope its creator lacks: every scope the new key would hold as
 * `role` must already be held by the creator.
 */
export function ensureGrantable(selection: KeySelection, role: Role, creatorScopes: ReadonlySet<Scope>): Result<KeySelection> {
  const missing = missingScopes(effectiveScopes(selection.selectedScopes, role), creatorScopes);
  return missing.length > 0 ? fail(forbidden(missingScopeMessage(missing))) : ok(selection);
}
