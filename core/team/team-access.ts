import { canManageTeam } from "../access/role-ceilings.js";
import type { Actor } from "../shared/actor.js";
import { forbidden } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";

/** The spec's 403 'admin access' error (Team): invitations are managed by owners and admins. */
export const ADMIN_ACCESS_REQUIRED = forbidden("This action requires owner or admin access");

export const requireTeamManager = (actor: Actor): Result<void> => (canManageTeam(actor.role) ? ok(undefined) : fail(ADMIN_ACCESS_REQUIRED));
