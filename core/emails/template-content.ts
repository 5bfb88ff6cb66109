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

/** The content a create takes: no prompt, a subject, exactly one of html and blocks. */
export function newContentFrom(input: {
  readonly prompt?: unknown;
  readonly subject?: string | undefined;
  readonly previewText?: string | null | undefined;
  readonly html?: string | undefined;
  readonly blocks?: readonly EmailBlock[] | undefined;
}): Result<{ subject: string; previewText: string | null; body: EmailBody }> {
  if (input.prompt !== undefined) return fail(PROMPT_UNAVAILABLE);
  if (input.subject === undefined) return fail(SUBJECT_REQUIRED);
  const body = bodyFrom(input);
  if (body._tag === "Left") return body;
  if (!body.right) return fail(ONE_BODY_SOURCE);
  return ok({ subject: input.subject, previewText: input.previewText ?? null, body: body.right });
}
