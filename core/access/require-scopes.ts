import type { Actor } from "../shared/actor.js";
import { forbidden } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { missingScopeMessage, missingScopes } from "./permissions.js";
import type { Scope } from "./scopes.js";

/** A route's scope rule: the key must hold every scope the route lists; the 403 names the missing ones (spec wording). */
export function requireScopes(required: readonly Scope[], actor: Actor): Result<void> {
  const missing = missingScopes(required, actor.scopes);
  return missing.length === 0 ? ok(undefined) : fail(forbidden(missingScopeMessage(missing)));
}
