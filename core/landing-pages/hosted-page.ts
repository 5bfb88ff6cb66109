import type { SavedForm } from "../forms/model.js";
import type { FormRepository } from "../forms/ports.js";
import type { LandingPage } from "./model.js";

/** A page as a visitor gets it: with the form its form block names, when that form still exists. */
export interface HostedPage {
  readonly page: LandingPage;
  readonly form: SavedForm | null;
  readonly companyName: string;
}

export async function formOfPage(forms: FormRepository, page: LandingPage): Promise<SavedForm | null> {
  const formId = page.content.blocks.find((block) => block.type === "form")?.formId;
  return formId ? forms.find(page.companyId, formId) : null;
}
