import type { Actor } from "../shared/actor.js";
import { fail, ok } from "../shared/result.js";
import { FORM_NOT_FOUND } from "./errors.js";
import type { FormRepository } from "./ports.js";
import { toEmbedWithSnippets, toFormView } from "./view.js";

/** GET /forms/embed/{formId}: the form and what to paste into a site to show it. */
export class GetFormEmbed {
  constructor(
    private readonly forms: FormRepository,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, formId: string) => {
    const form = await this.forms.find(actor.companyId, formId);
    if (!form) return fail(FORM_NOT_FOUND);
    return ok({ form: toFormView(form, this.baseUrl), embed: toEmbedWithSnippets(form, this.baseUrl) });
  };
}
