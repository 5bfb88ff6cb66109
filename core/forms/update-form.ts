import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok } from "../shared/result.js";
import type { UpdateFormCommand } from "./commands.js";
import { FORM_NOT_FOUND } from "./errors.js";
import type { FormReferences } from "./form-references.js";
import { blocksProblem, DEFAULT_SUCCESS_MESSAGE, type FormBlock, type SavedForm } from "./model.js";
import type { FormRepository } from "./ports.js";
import { mergeTheme } from "./theme.js";
import { toEmbedView, toFormView } from "./view.js";

/** Placeholders and `required` belong to inputs; the email field is always required. */
const normaliseBlock = (block: NonNullable<UpdateFormCommand["blocks"]>[number]): FormBlock => {
  if (block.type === "heading" || block.type === "text" || block.type === "submit") return { type: block.type, text: block.text };
  return { type: block.type, text: block.text, placeholder: block.placeholder ?? "", required: block.type === "email" ? true : (block.required ?? false) };
};

/**
 * PATCH /forms/{formId} (compat-reference §18): only the given fields change; `tagIds: []`
 * clears the tags, `redirectUrl: ""` goes back to the success message, `theme` is merged and
 * `blocks` replaces the layout (exactly one email field and one submit button).
 */
export class UpdateForm {
  constructor(
    private readonly forms: FormRepository,
    private readonly references: FormReferences,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, formId: string, input: UpdateFormCommand) => {
    const form = await this.forms.find(actor.companyId, formId);
    if (!form) return fail(FORM_NOT_FOUND);
    if (Object.values(input).every((value) => value === undefined)) return fail(badRequest("No supported fields provided"));
    const blocks = input.blocks?.map(normaliseBlock);
    const problem = blocks ? blocksProblem(blocks) : null;
    if (problem) return fail(badRequest(problem));
    // Only what is given is checked: a list deleted since does not block renaming the form.
    const references = await this.references.check(actor.companyId, input.listIds ?? [], input.tagIds ?? []);
    if (references._tag === "Left") return references;
    const updated: SavedForm = {
      ...form,
      name: input.name ?? form.name,
      listIds: input.listIds ? references.right.listIds : form.listIds,
      tagIds: input.tagIds ? references.right.tagIds : form.tagIds,
      duplicateStrategy: input.duplicateStrategy ?? form.duplicateStrategy,
      successMessage: input.successMessage === undefined ? form.successMessage : (input.successMessage ?? DEFAULT_SUCCESS_MESSAGE),
      redirectUrl: input.redirectUrl === undefined ? form.redirectUrl : input.redirectUrl || null,
      headline: input.headline === undefined ? form.headline : input.headline,
      description: input.description === undefined ? form.description : input.description,
      buttonText: input.buttonText ?? form.buttonText,
      showFirstName: input.showFirstName ?? form.showFirstName,
      showLastName: input.showLastName ?? form.showLastName,
      theme: mergeTheme(form.theme, input.theme),
      customBlocks: blocks ?? form.customBlocks,
      updatedAt: this.clock.now(),
    };
    if (!(await this.forms.update(updated))) return fail(FORM_NOT_FOUND);
    return ok({ form: toFormView(updated, this.baseUrl), embed: toEmbedView(updated, this.baseUrl) });
  };
}
