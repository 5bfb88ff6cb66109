import type { SavedForm } from "../forms/model.js";
import type { FormRepository } from "../forms/ports.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { LandingPage } from "./model.js";

/** A page as a visitor gets it: with the form its form block names, when that form still exists. */
export interface HostedPage {
  readonly page: LandingPage;
  readonly form: SavedForm | null;
  readonly companyName: string;
}

async function formOfPage(forms: FormRepository, page: LandingPage): Promise<SavedForm | null> {
  const formId = page.content.blocks.find((block) => block.type === "form")?.formId;
  return formId ? forms.find(page.companyId, formId) : null;
}

/** The page with its form and its company's name, as the hosted page and its preview show it. */
export async function hostedPage(forms: FormRepository, tenancy: TenancyRepository, page: LandingPage): Promise<HostedPage> {
  const [form, company] = await Promise.all([formOfPage(forms, page), tenancy.findCompany(page.companyId)]);
  return { page, form, companyName: company?.name ?? "" };
}
