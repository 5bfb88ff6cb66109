import type { FormRepository } from "../forms/ports.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { LandingContentInput } from "./commands.js";
import { CONTENT_VERSION, contentProblem, type LandingBlock, type LandingContent } from "./model.js";

/** Only the fields a block's type uses are kept. */
function blockOf(input: LandingContentInput["blocks"][number]): LandingBlock {
  const base = { id: input.id, type: input.type, slot: input.slot };
  switch (input.type) {
    case "heading":
    case "text":
    case "footer":
      return { ...base, text: input.text ?? "" };
    case "image":
      return { ...base, ...(input.src ? { src: input.src } : {}), alt: input.alt ?? "" };
    case "button":
      return { ...base, text: input.text ?? "", ...(input.url ? { url: input.url } : {}) };
    case "list":
      return { ...base, items: input.items ?? [] };
    case "form":
      return { ...base, formId: input.formId ?? null };
  }
}

/**
 * Content as given, made whole and checked (compat-reference §19): the blocks replace the
 * current ones, and the template, seo and theme stay as they are unless given; exactly one
 * footer block, at most one form block, whose form must be one of the company's.
 */
export class LandingContentRules {
  constructor(private readonly forms: FormRepository) {}

  check = async (companyId: string, input: LandingContentInput, current: LandingContent): Promise<Result<LandingContent>> => {
    const content: LandingContent = {
      version: CONTENT_VERSION,
      template: input.template ?? current.template,
      seo: input.seo ?? current.seo,
      theme: input.theme ?? current.theme,
      blocks: input.blocks.map(blockOf),
    };
    const problem = contentProblem(content);
    if (problem) return fail(badRequest(problem));
    const formId = content.blocks.find((block) => block.type === "form")?.formId;
    if (formId && !(await this.forms.find(companyId, formId))) return fail(badRequest(`Form not found: ${formId}`));
    return ok(content);
  };
}
