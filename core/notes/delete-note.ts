import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { NoteRepository } from "./ports.js";

export const noteNotFound = () => notFound("Note not found");

/** Deletes a note of the company; another company's note is not found. */
export class DeleteNote {
  constructor(private readonly notes: NoteRepository) {}

  execute = async (actor: Actor, noteId: string): Promise<Result<{ deleted: true; id: string; subscriberId: string }>> => {
    const note = await this.notes.find(actor.companyId, noteId);
    if (!note || !(await this.notes.delete(actor.companyId, noteId))) return fail(noteNotFound());
    return ok({ deleted: true, id: note.id, subscriberId: note.subscriberId });
  };
}
