import type { AuthoredNote, Note } from "./model.js";
import { token } from "../shared/token.js";

/** Notes on a company's contacts, read with their author. Every method names the company. */
export interface NoteRepository {
  insert(note: Note): Promise<void>;
  find(companyId: string, noteId: string): Promise<AuthoredNote | null>;
  /** Newest first. */
  listForSubscriber(companyId: string, subscriberId: string): Promise<AuthoredNote[]>;
  /** False when the company has no such note. */
  delete(companyId: string, noteId: string): Promise<boolean>;
}
export const NoteRepository = token<NoteRepository>("lifecycle.NoteRepository");
