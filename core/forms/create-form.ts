import type { Clock } from "../ports/clock.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { CreateFormCommand } from "./commands.js";
import type { FormReferences } from "./form-references.js";
import { DEFAULT_BUTTON_TEXT, DEFAULT_FORM_THEME, DEFAULT_SUCCESS_MESSAGE, type SavedForm } from "./model.js";
import type { FormRepository } from "./ports.js";
import { mergeTheme } from "./theme.js";
import { formActionUrl } from "./urls.js";
import { toEmbedView } from "./view.js";

export interface CreatedForm {
  readonly form: { readonly id: string; readonly name: string; readonly status: string; readonly actionUrl: string };
  readonly embed: { readonly actionUrl: string; readonly scriptUrl: string };
}

/**
 * POST /forms: a signup form, published at once. Its ID is random, not time-sortable: the
 * actionUrl is public, and whoever knows it may submit to the form.
 */
export class CreateForm {
  constructor(
    private readonly forms: FormRepository,
    private readonly references: FormReferences,
    private readonly randomTokens: RandomTokens,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, input: CreateFormCommand): Promise<Result<CreatedForm>> => {
    const references = await this.references.check(actor.companyId, input.listIds, input.tagIds ?? []);
    if (references._tag === "Left") return references;
    const now = this.clock.now();
    const form: SavedForm = {
      id: `form_${this.randomTokens.next()}`,
      companyId: actor.companyId,
      name: input.name,
      status: "published",
      listIds: references.right.listIds,
      tagIds: references.right.tagIds,
      duplicateStrategy: input.duplicateStrategy ?? "skip",
      successMessage: input.successMessage ?? DEFAULT_SUCCESS_MESSAGE,
      redirectUrl: input.redirectUrl ?? null,
      headline: input.headline ?? null,
      description: input.description ?? null,
      buttonText: input.buttonText ?? DEFAULT_BUTTON_TEXT,
      showFirstName: input.showFirstName ?? false,
      showLastName: input.showLastName ?? false,
      theme: mergeTheme(DEFAULT_FORM_THEME, input.theme),
      customBlocks: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.forms.insert(form);
    return ok({
      form: { id: form.id, name: form.name, status: form.status, actionUrl: formActionUrl(this.baseUrl, form.id) },
      embed: toEmbedView(form, this.baseUrl),
    });
  };
}
