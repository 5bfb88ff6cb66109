import type { Actor } from "../shared/actor.js";
import { badRequest, forbidden, notFound, type DomainError } from "../shared/errors.js";

/** Error codes of data export bodies (spec, Errors). */
export const INVALID_INPUT = "invalid_input";
export const CONNECTION_FAILED = "connection_failed";
export const NOT_FOUND = "not_found";

/** 404 `{success:false, code:'not_found', error}`; also for another company's export. */
export const dataExportNotFound = () => notFound("Data export not found", { code: NOT_FOUND });

/** 400 with `code: invalid_input`: well-typed input that breaks a rule. */
export const invalidInput = (message: string) => badRequest(message, { code: INVALID_INPUT });

/** Users with the marketer role are barred from every data export route (spec, Authentication). */
export const marketerBarred = () => forbidden("Users with the marketer role cannot access data exports");

/** The marketer bar, checked by every data export use case (the routes check scopes first). */
export const barMarketer = (actor: Actor): DomainError | null => (actor.role === "marketer" ? marketerBarred() : null);
