import type { DomainError, DomainErrorTag } from "../../core/shared/errors.js";

const STATUS: Record<DomainErrorTag, number> = {
  Invalid: 422,
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  InvalidState: 400,
  Failed: 500,
};

export const statusOf = (error: DomainError): number => STATUS[error._tag];

/** The spec's error envelope: `{success:false, error, code?}` (or only `{error}` where the spec shows that). */
export function errorBody(error: DomainError): Record<string, unknown> {
  return {
    ...(error.bare ? {} : { success: false }),
    error: error.message,
    ...(error.code ? { code: error.code } : {}),
    ...(error._tag === "Invalid" && error.errors ? { errors: error.errors } : {}),
    ...error.extra,
  };
}

/** The message of a 500, unless the route names another (the details go to the log). */
export const INTERNAL_ERROR_MESSAGE = "Internal server error";
