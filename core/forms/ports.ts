import { token } from "../shared/token.js";
import type { SavedForm } from "./model.js";

/** A company's saved forms. Every method but `findPublic` names the company. */
export interface FormRepository {
  /** Newest first. */
  list(companyId: string): Promise<SavedForm[]>;
  find(companyId: string, formId: string): Promise<SavedForm | null>;
  /** The form an actionUrl names: its ID is the capability, so no company is asked for. */
  findPublic(formId: string): Promise<SavedForm | null>;
  insert(form: SavedForm): Promise<void>;
  /** False when the company has no such form. */
  update(form: SavedForm): Promise<boolean>;
}
export const FormRepository = token<FormRepository>("lifecycle.FormRepository");
