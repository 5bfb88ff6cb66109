import { notFound } from "../shared/errors.js";

export const FORM_NOT_FOUND = notFound("Form not found");
