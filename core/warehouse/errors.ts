import { badRequest, notFound } from "../shared/errors.js";

/** The spec's `not_found` (Errors): a sync of another company is not found either. */
export const syncNotFound = () => notFound("Warehouse sync not found", { code: "not_found" });
export const connectionNotFound = () => notFound("Warehouse connection not found", { code: "not_found" });
/** The warehouse could not be reached or its address is refused (the spec's data-export code, for warehouses too). */
export const connectionFailed = (message: string) => badRequest(message, { code: "connection_failed" });
export const invalidInput = (message: string) => badRequest(message, { code: "invalid_input" });
