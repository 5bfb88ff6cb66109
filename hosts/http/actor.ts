import type { Response } from "express";
import type { Actor } from "../../core/shared/actor.js";

/** The authenticated actor the authentication middleware put on the response. */
export const actorOf = (res: Response): Actor => res.locals.actor as Actor;
