import { badRequest, invalid } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { EmailBlock } from "./blocks.js";
import type { EmailBody } from "./model.js";

/** Rules shared by the template writes: one body source, at least one block, no AI prompt. */

export const PROMPT_UNAVAILABLE = badRequest("AI generation (prompt) is not available on this server: provide the content as html or blocks");
export const ONE_BODY_SOURCE = badRequest("Provide exactly one of html or blocks");
export const NO_BLOCKS = badRequest("blocks must contain at least one block");
export const SUBJECT_REQUIRED = invalid("Invalid request: subject is required", [{ path: "subject", message: "is required" }]);

/** The body the input gives, or undefined when it gives none. */
export function bodyFrom(input: { readonly html?: string | undefined; readonly blocks?: readonly EmailBlock[] | undefined }): Result<EmailBody | undefined> {
  if (input.html !== undefined && input.blocks !== undefined) return fail(ONE_BODY_SOURCE);
  if (input.blocks !== undefined) return input.blocks.length === 0 ? fail(NO_BLOCKS) : ok({ blocks: input.blocks });
  return ok(input.html !== undefined ? { html: input.html } : undefined);
}

/** Labels without repeats, in the order given. */
export const uniqueLabels = (labels: readonly string[]): string[] => [...new Set(labels)];
