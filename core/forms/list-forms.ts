import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { FormRepository } from "./ports.js";
import { toFormView, type FormView } from "./view.js";

/** GET /forms: every form of the company, newest first (compat-reference: no pagination). */
export class ListForms {
  constructor(
    private readonly forms: FormRepository,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor): Promise<Result<FormView[]>> => ok((await this.forms.list(actor.companyId)).map((form) => toFormView(form, this.baseUrl)));
}
