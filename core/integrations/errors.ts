import { notFound } from "../shared/errors.js";

export const integrationNotFound = () => notFound("Integration not found");
